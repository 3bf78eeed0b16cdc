export interface RetryOptions {
  /** Attempts after the first (default 3). */
  retries?: number;
  /** The first pause, doubled each time (default 500 ms); a 429's Retry-After wins. */
  backoffMs?: number;
}

const RETRIED_STATUSES = new Set([429, 500, 502, 503, 504]);
/** The 409 of a key whose first request still runs (contract §11): its answer comes once that ends. */
const IN_PROGRESS = 'A request with this idempotency key is in progress';

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
        // The caller's own abort is not a failure to retry.
        if (last || request.signal.aborted) throw error;
        await pause(backoffMs * 2 ** attempt);
        continue;
      }
      const again = RETRIED_STATUSES.has(response.status) || (attempt > 0 && (await stillRunning(request, response)));
      if (last || !again) return response;
      const after = Number(response.headers.get('retry-after'));
      await response.body?.cancel();
      await pause(Number.isFinite(after) && after > 0 ? after * 1000 : backoffMs * 2 ** attempt);
    }
  };
}

/** After a try whose answer was lost: that try may still run, which is no conflict of the caller's. */
async function stillRunning(request: Request, response: Response): Promise<boolean> {
  if (request.method !== 'POST' || response.status !== 409) return false;
  const body = (await response
    .clone()
    .json()
    .catch(() => undefined)) as { error?: unknown } | undefined;
  return body?.error === IN_PROGRESS;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
