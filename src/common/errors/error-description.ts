import { HttpException } from '@nestjs/common';
import { AppError } from './app-error';
import type { ErrorBody } from '../dto/error-body';
import { ErrorText } from './error-texts';
import { isDatabaseUnavailable, isOutOfRange } from './pg-errors';

export interface ErrorDescription {
  status: number;
  /** The request id is added by whoever writes the answer. */
  body: Omit<ErrorBody, 'requestId'> & { requestId?: string };
  headers?: Record<string, string>;
}

/** The status, body and headers an exception is answered with (the error filter's, and what idempotency keys store). */
export function describeError(exception: unknown): ErrorDescription {
  if (exception instanceof AppError) {
    const body: ErrorDescription['body'] = { error: exception.message };
    if (exception.details) body.details = exception.details;
    return { status: exception.status, body, headers: exception.headers };
  }
  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    return { status, body: { error: textForStatus(status, exception) } };
  }
  // A last guard behind the bounds on every field: what a write's arithmetic took out of range
  // was the request's doing, and its transaction has rolled back.
  if (isOutOfRange(exception)) return { status: 422, body: { error: ErrorText.numberOutOfRange } };
  if (isDatabaseUnavailable(exception)) {
    return { status: 503, body: { error: ErrorText.serviceUnavailable }, headers: { 'Retry-After': '5' } };
  }
  return { status: 500, body: { error: ErrorText.internal } };
}

function textForStatus(status: number, exception: HttpException): string {
  switch (status) {
    case 404:
      return ErrorText.notFound;
    case 413:
      return ErrorText.payloadTooLarge;
    case 415:
      return ErrorText.unsupportedMediaType;
    case 503:
      return ErrorText.serviceUnavailable;
    default:
      // Framework exceptions below 500 carry safe, short messages (e.g. "Method Not Allowed").
      return status >= 500 ? ErrorText.internal : exception.message;
  }
}
