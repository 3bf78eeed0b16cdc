export interface RetryOptions {
  /** Attempts after the first (default 3). */
  retries?: number;
  /** The first pause, doubled each time (default 500 ms); a 429's Retry-After wins. */
  backoffMs?: number;
}

const RETRIED_STATUSES = new Set([429, 500, 502, 503, 504]);

/**
 * `fetch` that retries what is safe to retry (contract §11, §20): a network failure, a 429 after
 * its Retry-After and a 5xx, a bounded number of times with doubling pauses. Every POST carries an
 * Idempotency-Key (the caller's, or one made here) that its retries reuse, so a POST whose first
 * answer was lost is not done twice.
 */
export function retryingFetch(inner: typeof fetch, options: RetryOptions = {}): typeof fetch {
  const retries = options.retries ?? 3;
  const backoffMs = options.backoffMs ?? 500;
  return async (input, init) => {
    const request = new Request(input, init);
    if (request.method === 'POST' && !request.headers.has('idempotency-key'))
      request.headers.set('Idempotency-Key', crypto.randomUUID());
    const body = request.body ? await request.arrayBuffer() : undefined;
    for (let attempt = 0; ; attempt++) {
      const last = attempt >= retries;
      let response: Response;
      try {
        response = await inner(new Request(request, { body }));
      } catch (error) {
        if (last) throw error;
        await pause(backoffMs * 2 ** attempt);
        continue;
      }
      if (last || !RETRIED_STATUSES.has(response.status)) return response;
      const after = Number(response.headers.get('retry-after'));
      await response.body?.cancel();
      await pause(Number.isFinite(after) && after > 0 ? after * 1000 : backoffMs * 2 ** attempt);
    }
  };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
