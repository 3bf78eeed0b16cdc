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
  const json = body === undefined ? undefined : { data: JSON.stringify(body), type: 'application/json' };
  return answerOf<T>(await send(method, path, json), path);
}

/** A file as the body (the catalog import's CSV), answered in JSON. */
export async function postFile<T>(path: string, file: Blob, type: string): Promise<T> {
  return answerOf<T>(await send('POST', path, { data: file, type }), path);
}

/** A file the API answers with (the catalog export), as a download named `filename`. */
export async function download(path: string, filename: string): Promise<void> {
  const response = await send('GET', path);
  if (!response.ok) await answerOf(response, path);
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

function send(method: string, path: string, body?: { data: BodyInit; type: string }): Promise<Response> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = body.type;
  if (method !== 'GET' && session.csrfToken) headers['X-CSRF-Token'] = session.csrfToken;
  if (session.brandId !== null) headers['X-Brand-Id'] = String(session.brandId);
  return fetch(path, { method, headers, credentials: 'same-origin', body: body?.data });
}

async function answerOf<T>(response: Response, path: string): Promise<T> {
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
