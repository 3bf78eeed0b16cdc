import type { HttpRequest } from '../context/http-types';

const ERROR_TEXT = Symbol('errorText');
type WithErrorText = HttpRequest & { [ERROR_TEXT]?: string };

/** The error filter notes the `error` text it answered with, for whatever watches the request's outcome. */
export function noteErrorText(request: HttpRequest, text: string): void {
  (request as WithErrorText)[ERROR_TEXT] = text;
}

/** The `error` text the error filter answered the request with, if it answered it. */
export function answeredErrorText(request: HttpRequest): string | null {
  return (request as WithErrorText)[ERROR_TEXT] ?? null;
}
