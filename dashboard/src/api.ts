/** The public JSON API, as the signed-in store administrator: cookie session and X-CSRF-Token. */
import type { ErrorBody } from './types';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly details: string[] = [],
  ) {
    super(message);
  }
}

interface Session {
  csrfToken: string | null;
  brandId: number | null;
  onSignedOut: () => void;
}

const session: Session = { csrfToken: null, brandId: null, onSignedOut: () => undefined };

export function setCsrfToken(token: string | null): void {
  session.csrfToken = token;
}

export function setBrand(brandId: number | null): void {
  session.brandId = brandId;
}

export function onSignedOut(handler: () => void): void {
  session.onSignedOut = handler;
}

/**
 * One request. Changes carry the session's CSRF token; brand-scoped routes get the chosen brand
 * in X-Brand-Id. A 401 means the session ended: back to sign-in. Errors keep the API's text.
 */
export async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (method !== 'GET' && session.csrfToken) headers['X-CSRF-Token'] = session.csrfToken;
  if (session.brandId !== null) headers['X-Brand-Id'] = String(session.brandId);
  const response = await fetch(path, {
    method,
    headers,
    credentials: 'same-origin',
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (response.status === 204) return undefined as T;
  // A body that is not JSON (a proxy's page) leaves every field out.
  const json = (await response.json().catch(() => ({}))) as Partial<ErrorBody>;
  if (!response.ok) {
    if (response.status === 401 && path !== '/auth/login') session.onSignedOut();
    throw new ApiError(response.status, json.error ?? `HTTP ${response.status}`, json.details ?? []);
  }
  return json as T;
}

export const get = <T>(path: string) => api<T>('GET', path);
export const post = <T>(path: string, body: unknown = {}) => api<T>('POST', path, body);
export const patch = <T>(path: string, body: unknown) => api<T>('PATCH', path, body);
export const put = <T>(path: string, body: unknown) => api<T>('PUT', path, body);
export const del = (path: string) => api<void>('DELETE', path);
