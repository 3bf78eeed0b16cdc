import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { AbstractHttpAdapter } from '@nestjs/core';
import type { HttpRequest } from '../context/http-types';
import { contextOf } from '../context/context-of';
import { AppError } from './app-error';
import type { ErrorBody as ErrorBodyClass } from './error-body';
import { ErrorText } from './error-texts';
import { isDatabaseUnavailable, isOutOfRange } from './pg-errors';

// The request id is added last, from the request.
type ErrorBody = Omit<ErrorBodyClass, 'requestId'> & { requestId?: string };

/**
 * Every failure of every route, and of the body parser before routing, ends here, on either
 * HTTP platform: the answer is written through Nest's adapter for it.
 */
@Catch()
export class ErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('ErrorFilter');

  constructor(private readonly http: AbstractHttpAdapter) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<HttpRequest>();
    const response: unknown = http.getResponse();
    const { path } = contextOf(request);
    const { status, body, headers } = this.describe(exception);
    if (status === 503) {
      this.logger.warn(
        { requestId: request.id, path, reason: exception instanceof Error ? exception.message : String(exception) },
        'database unavailable',
      );
    } else if (status >= 500) {
      // Only name, message and stack: driver errors carry query parameters, which can hold secrets.
      const err =
        exception instanceof Error
          ? { type: exception.name, message: exception.message, stack: exception.stack }
          : { message: String(exception) };
      this.logger.error({ err, requestId: request.id, path }, 'request failed');
    }
    body.requestId = typeof request.id === 'string' ? request.id : '';
    if (this.http.isHeadersSent(response)) return;
    for (const [name, value] of Object.entries(headers ?? {})) this.http.setHeader(response, name, value);
    this.http.reply(response, body, status);
  }

  private describe(exception: unknown): { status: number; body: ErrorBody; headers?: Record<string, string> } {
    if (exception instanceof AppError) {
      const body: ErrorBody = { error: exception.message };
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
