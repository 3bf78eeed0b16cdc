import type { NextFunction, Request, Response } from 'express';
import { AppError } from '../errors/app-error';
import { ErrorText } from '../errors/error-texts';

/**
 * Turns the JSON parser's refusals into our errors before Nest sees them (Nest would rewrap a
 * syntax error with the parser's own message).
 */
export function bodyParserErrors(error: unknown, _request: Request, _response: Response, next: NextFunction): void {
  const type = (error as { type?: string } | null)?.type;
  if (type === 'entity.parse.failed') return next(new AppError(400, ErrorText.malformedJson));
  if (type === 'entity.too.large') return next(new AppError(413, ErrorText.payloadTooLarge));
  if (type === 'encoding.unsupported' || type === 'charset.unsupported') {
    return next(new AppError(415, 'Unsupported content encoding'));
  }
  next(error);
}
