/** The public JSON API, as the signed-in store administrator: cookie session and X-CSRF-Token. */
import type { ErrorBody } from './types';

/**
 * The refusal that opens the step-up dialog (contract §19), as the service's ErrorText words it.
 * Written out rather than imported: that list is one object, which would take its every text
 * (a tenth of the bundle) into the page. The browser suite's step-up case fails if they part.
 */
const RECENT_AUTHENTICATION_REQUIRED = 'Forbidden: recent authentication required';
/** A store's policy refusing a session without a second factor: the shell sends the person to Account. */
const SECOND_FACTOR_REQUIRED = 'Forbidden: second factor required';
/** A wrong code or passkey answers 401 too, but the session (if any) lives on. */
const INVALID_CODE = 'Invalid code';

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
  /** Asks the person to prove their account again (the step-up dialog); false when they decline. */
  proveAccount: (() => Promise<boolean>) | null;
  /** Told the store (X-Brand-Id) whose policy refused the session. */
  onSecondFactorRequired: (brandId: number | null) => void;
}

const session: Session = {
  csrfToken: null,
  brandId: null,
  onSignedOut: () => undefined,
  proveAccount: null,
  onSecondFactorRequired: () => undefined,
};

export function setCsrfToken(token: string | null): void {
  session.csrfToken = token;
}

export function setBrand(brandId: number | null): void {
  session.brandId = brandId;
}

export function onSignedOut(handler: () => void): void {
  session.onSignedOut = handler;
}

export function onSecondFactorRequired(handler: (brandId: number | null) => void): void {
  session.onSecondFactorRequired = handler;
}

/**
 * Who answers a sensitive action's 403 `Forbidden: recent authentication required` (contract §19):
 * the step-up dialog, which resolves true once `POST /auth/step-up` took the password or the second factor.
 */
export function onRecentAuthenticationRequired(handler: (() => Promise<boolean>) | null): void {
  session.proveAccount = handler;
}

/**
 * One request. Changes carry the session's CSRF token; brand-scoped routes get the chosen brand
 * in X-Brand-Id. A 401 means the session ended: back to sign-in. Errors keep the API's text.
 * An action that needs a recent sign-in asks for the password (or the second factor), then goes again once.
 */
export async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const json = body === undefined ? undefined : { data: JSON.stringify(body), type: 'application/json' };
  return answerOf<T>(await exchange(method, path, json), path);
}

/** A file as the body (the catalog import's CSV), answered in JSON. */
export async function postFile<T>(path: string, file: Blob, type: string): Promise<T> {
  return answerOf<T>(await exchange('POST', path, { data: file, type }), path);
}

/** A file the API answers with (the catalog export), as a download named `filename`. */
export async function download(path: string, filename: string): Promise<void> {
  const response = await exchange('GET', path);
  if (!response.ok) await answerOf(response, path);
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/**
 * `send`, and on the recent-authentication refusal the step-up dialog, then the same request once
 * more: in one place, so every page's sensitive action (issue or roll a key, a webhook secret, a
 * buyer's data, an invitation) gets it without knowing. Declined, or refused again, the refusal
 * stands and its text is shown where the action was started.
 */
async function exchange(method: string, path: string, body?: { data: BodyInit; type: string }): Promise<Response> {
  const response = await send(method, path, body);
  if (response.status !== 403 || !session.proveAccount) return response;
  const error = await response
    .clone()
    .json()
    .then(
      (json: Partial<ErrorBody>) => json.error,
      () => undefined,
    );
  if (error !== RECENT_AUTHENTICATION_REQUIRED || !(await proveAccountOnce())) return response;
  return send(method, path, body);
}

let proving: Promise<boolean> | null = null;

/** Requests refused together (a page loading two sensitive things) share one dialog. */
function proveAccountOnce(): Promise<boolean> {
  proving ??= session.proveAccount!().finally(() => (proving = null));
  return proving;
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
    // The sign-in's own steps answer 401 while nobody is signed in yet: not a session that ended.
    const signingIn = path === '/auth/login' || path.startsWith('/auth/login/');
    if (response.status === 401 && !signingIn && json.error !== INVALID_CODE) session.onSignedOut();
    if (response.status === 403 && json.error === SECOND_FACTOR_REQUIRED) {
      session.onSecondFactorRequired(session.brandId);
    }
    throw new ApiError(response.status, json.error ?? `HTTP ${response.status}`, json.details ?? []);
  }
  return json as T;
}

export const get = <T>(path: string) => api<T>('GET', path);
export const post = <T>(path: string, body: unknown = {}) => api<T>('POST', path, body);
export const patch = <T>(path: string, body: unknown) => api<T>('PATCH', path, body);
export const put = <T>(path: string, body: unknown) => api<T>('PUT', path, body);
export const del = (path: string) => api<void>('DELETE', path);
