import { ArgumentsHost, Catch, ExceptionFilter, Logger } from '@nestjs/common';
import type { AbstractHttpAdapter } from '@nestjs/core';
import type { HttpRequest } from '../context/http-types';
import { contextOf } from '../context/context-of';
import { describeError } from './error-description';
import { noteErrorText } from './answered-error-text';

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
    this.answer(exception, request, response);
  }

  private answer(exception: unknown, request: HttpRequest, response: unknown): void {
    const { path } = contextOf(request);
    const { status, body, headers } = describeError(exception);
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
    noteErrorText(request, body.error);
    if (this.http.isHeadersSent(response)) return;
    for (const [name, value] of Object.entries(headers ?? {})) this.http.setHeader(response, name, value);
    this.http.reply(response, body, status);
  }
}
