import type { HttpRequest } from '../context/http-types';

/** A request header's value; the first one when it was sent more than once. */
export function headerOf(request: HttpRequest, name: string): string | undefined {
  const value = request.headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Whether a header (its lower-case name) came more than once. Node keeps only the first of some,
 * Authorization among them, so only the raw lines tell; read them only where it matters.
 */
export function isRepeated(request: HttpRequest, name: string): boolean {
  const lines = request.rawHeaders ?? request.raw?.rawHeaders ?? [];
  let seen = false;
  for (let i = 0; i < lines.length; i += 2) {
    if (lines[i].length !== name.length || lines[i].toLowerCase() !== name) continue;
    if (seen) return true;
    seen = true;
  }
  return false;
}
