import type { HttpRequest } from '../context/http-types';

/** A request header's value; the first one when it was sent more than once. */
export function headerOf(request: HttpRequest, name: string): string | undefined {
  const value = request.headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}
