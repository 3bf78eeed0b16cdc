import { ErrorText } from './error-texts';

/**
 * The one error type services throw. The filter turns it into `{error, details?, requestId}`
 * with the status given here; nothing else decides an error's status or text.
 */
export class AppError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly details?: string[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }

  static badRequest(details: string[]): AppError {
    return new AppError(400, details[0], details);
  }
  static unauthorized(message: string = ErrorText.unauthorized): AppError {
    return new AppError(401, message);
  }
  static forbidden(message: string): AppError {
    return new AppError(403, message);
  }
  static notFound(): AppError {
    return new AppError(404, ErrorText.notFound);
  }
  static conflict(message: string): AppError {
    return new AppError(409, message);
  }
}
