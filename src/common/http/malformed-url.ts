import { AppError } from '../errors/app-error';
import { ErrorText } from '../errors/error-texts';

/**
 * Whether the request target's path holds a percent-escape that does not decode (`%`, `%zz`, or
 * bytes that are not UTF-8: `%ff`, `%c0%ae`). Fastify's router refuses such a path before any
 * route; Express would answer 404 or, inside a route's parameter, a 400 of its own.
 */
export function hasMalformedPath(url: string): boolean {
  const escape = url.indexOf('%');
  if (escape === -1) return false;
  const end = url.search(/[?#]/);
  if (end !== -1 && end < escape) return false;
  try {
    decodeURIComponent(end === -1 ? url : url.slice(0, end));
    return false;
  } catch {
    return true;
  }
}

export const malformedUrl = (): AppError => AppError.badRequestText(ErrorText.malformedUrl, [ErrorText.malformedUrl]);
