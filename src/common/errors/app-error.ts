import { ErrorText } from './error-texts';

/**
 * The one error type services throw, made only by its factories (so a status is always one
 * these name). The filter turns it into `{error, details?, requestId}` with that status; nothing
 * else decides an error's status or text.
 */
export class AppError extends Error {
  private constructor(
    readonly status: number,
    message: string,
    readonly details?: string[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }

  /** 400: every problem listed, the first as the error. */
  static badRequest(details: string[]): AppError {
    return new AppError(400, details[0], details);
  }
  /** 400 with a text of its own (e.g. the contract's `Malformed JSON body`) and its details. */
  static badRequestText(message: string, details: string[]): AppError {
    return new AppError(400, message, details);
  }
  static unauthorized(message: string = ErrorText.unauthorized): AppError {
    return new AppError(401, message);
  }
  static forbidden(message: string): AppError {
    return new AppError(403, message);
  }
  static notFound(message: string = ErrorText.notFound): AppError {
    return new AppError(404, message);
  }
  static conflict(message: string): AppError {
    return new AppError(409, message);
  }
  static payloadTooLarge(): AppError {
    return new AppError(413, ErrorText.payloadTooLarge);
  }
  static unsupportedMediaType(details?: string[]): AppError {
    return new AppError(415, ErrorText.unsupportedMediaType, details);
  }
  /** 415 of the one route that takes CSV (contract §18). */
  static unsupportedMediaTypeCsv(): AppError {
    return new AppError(415, ErrorText.unsupportedMediaTypeCsv);
  }
  static unsupportedContentEncoding(): AppError {
    return new AppError(415, ErrorText.unsupportedContentEncoding);
  }

  /** 422: well-formed, but the platform cannot act on it (unknown lines, out-of-range stock). */
  static unprocessable(message: string, details?: string[]): AppError {
    return new AppError(422, message, details);
  }
  /** 429 with the seconds to wait in Retry-After. */
  static tooManyRequests(message: string, retryAfterSeconds: number): AppError {
    return new AppError(429, message, undefined, { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))) });
  }
  static unavailable(details?: string[]): AppError {
    return new AppError(503, ErrorText.serviceUnavailable, details, { 'Retry-After': '5' });
  }
}
