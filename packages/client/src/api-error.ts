/** A failed call: the service's error body (contract: `{error, details?, requestId}`) with its status. */
export class ApiError extends Error {
  readonly status: number;
  readonly error: string;
  readonly details: string[];
  readonly requestId: string | undefined;
  /** Seconds the service asked to wait (429, 503), when it said. */
  readonly retryAfter: number | undefined;

  constructor(status: number, body: unknown, headers: Headers) {
    const parsed = (body && typeof body === 'object' ? body : {}) as {
      error?: unknown;
      details?: unknown;
      requestId?: unknown;
    };
    const error = typeof parsed.error === 'string' ? parsed.error : `HTTP ${status}`;
    super(`${status} ${error}`);
    this.name = 'ApiError';
    this.status = status;
    this.error = error;
    this.details = Array.isArray(parsed.details) ? parsed.details.map(String) : [];
    this.requestId =
      typeof parsed.requestId === 'string' ? parsed.requestId : (headers.get('x-request-id') ?? undefined);
    const after = Number(headers.get('retry-after'));
    this.retryAfter = Number.isFinite(after) && after > 0 ? after : undefined;
  }
}
