import type { ConfigService } from '@nestjs/config';
import { QueryFailedError } from 'typeorm';
import type { KeyChecks } from '../access-keys/key-checks';
import type { HttpRequest } from '../common/context/http-types';
import type { RequestContext } from '../common/context/request-context';
import type { RequestOutcome, RequestOutcomeListener, RequestOutcomes } from '../common/http/request-outcomes';
import type { Environment } from '../config/environment';
import type { FailedRequest } from './failed-request';
import type { RequestLogRepository } from './request-log.repository';
import { KEPT_429_PER_MINUTE, RequestRecorder } from './request-recorder';
import { RequestTally, type TallyRow } from './request-tally';

const KEY = `csh_at_${'a'.repeat(64)}`;

function recorder() {
  let listener: RequestOutcomeListener = () => undefined;
  const outcomes = { listen: (l: RequestOutcomeListener) => (listener = l) } as unknown as RequestOutcomes;
  const written: Array<{ counts: TallyRow[]; failures: FailedRequest[] }> = [];
  const write = jest.fn(async (counts: readonly TallyRow[], failures: readonly FailedRequest[]) => {
    written.push({ counts: [...counts], failures: [...failures] });
    return Promise.resolve();
  });
  const pruneBatch = jest.fn().mockResolvedValue({ mine: true, failures: 0, counts: 0 });
  const repository = { write, pruneBatch } as unknown as RequestLogRepository;
  const identify = jest.fn<Promise<number | null>, [string, string]>().mockResolvedValue(null);
  const knownIdOf = jest.fn<number | null, [Buffer]>().mockReturnValue(null);
  const keys = { identify, knownIdOf } as unknown as KeyChecks;
  const config = { get: () => 1000 } as unknown as ConfigService<Environment, true>;
  const subject = new RequestRecorder(outcomes, keys, repository, config);
  return { subject, hear: (o: RequestOutcome) => listener(o), write, written, identify, knownIdOf };
}

function outcome(
  status: number,
  who: { kind: string; id: number } | null,
  over: {
    route?: string | null;
    error?: string | null;
    headers?: Record<string, string>;
    path?: string;
    requestId?: string;
  } = {},
): RequestOutcome {
  const request = {
    method: 'POST',
    url: `${over.path ?? '/orders/admin/7'}?q=1`,
    headers: over.headers ?? {},
    ip: '10.0.0.9',
    id: 'req-1',
  } as unknown as HttpRequest;
  const context = {
    requestId: over.requestId ?? 'req-1',
    ip: '10.0.0.9',
    method: 'POST',
    path: over.path ?? '/orders/admin/7',
    principal: who,
    brandId: 3,
  } as unknown as RequestContext;
  return {
    request,
    method: 'POST',
    route: over.route === undefined ? '/orders/admin/:orderId' : over.route,
    status,
    durationMs: 1.23456,
    error: over.error === undefined ? (status >= 400 ? 'Not found' : null) : over.error,
    context,
  };
}

const key = (id: number) => ({ kind: 'integration_key', id });

describe('RequestTally', () => {
  it('counts per key, method, route and status, hands everything over once, in one order', () => {
    const tally = new RequestTally();
    tally.add(2, 'GET', '/b', 200);
    tally.add(1, 'POST', '/a', 422);
    tally.add(1, 'POST', '/a', 201);
    tally.add(1, 'POST', '/a', 201);
    tally.add(1, 'GET', null, 404);
    expect(tally.take()).toEqual([
      { keyId: 1, method: 'GET', route: '', status: 404, count: 1 },
      { keyId: 1, method: 'POST', route: '/a', status: 201, count: 2 },
      { keyId: 1, method: 'POST', route: '/a', status: 422, count: 1 },
      { keyId: 2, method: 'GET', route: '/b', status: 200, count: 1 },
    ]);
    expect(tally.isEmpty).toBe(true);
    expect(tally.take()).toEqual([]);
  });

  it('takes back counts a write could not take, adding to those counted since', () => {
    const tally = new RequestTally();
    tally.add(1, 'GET', '/a', 200);
    const taken = tally.take();
    tally.add(1, 'GET', '/a', 200);
    tally.restore(taken);
    expect(tally.take()).toEqual([{ keyId: 1, method: 'GET', route: '/a', status: 200, count: 2 }]);
  });
});

describe('RequestRecorder', () => {
  it('counts every request of an identified key and keeps the failures, writing nothing before the flush', async () => {
    const { subject, hear, write, written } = recorder();
    hear(outcome(200, key(1)));
    hear(outcome(200, key(1)));
    hear(outcome(429, key(1), { error: 'Too many requests' }));
    hear(outcome(404, key(2), { route: null }));
    expect(write).not.toHaveBeenCalled();

    await subject.flush();
    expect(written).toHaveLength(1);
    expect(written[0].counts).toEqual([
      { keyId: 1, method: 'POST', route: '/orders/admin/:orderId', status: 200, count: 2 },
      { keyId: 1, method: 'POST', route: '/orders/admin/:orderId', status: 429, count: 1 },
      { keyId: 2, method: 'POST', route: '', status: 404, count: 1 },
    ]);
    expect(written[0].failures).toEqual([
      {
        keyId: 1,
        at: expect.any(Date),
        method: 'POST',
        route: '/orders/admin/:orderId',
        path: '/orders/admin/7',
        status: 429,
        error: 'Too many requests',
        requestId: 'req-1',
        idempotencyKey: null,
        durationMs: 1.23,
        ip: '10.0.0.9',
        count: 1,
        foldMinute: expect.any(Date),
        foldSlot: 0,
      },
      expect.objectContaining({ keyId: 2, route: null, status: 404, count: 1, foldMinute: null, foldSlot: null }),
    ]);

    // What was written is gone from memory: a second flush writes nothing.
    await subject.flush();
    expect(write).toHaveBeenCalledTimes(1);
  });

  it("keeps a few of a key's 429s a minute in full and the rest as one row's count, numbered on across flushes", async () => {
    jest.useFakeTimers({ now: Date.UTC(2026, 0, 1, 10, 0, 30), doNotFake: ['nextTick', 'setImmediate'] });
    try {
      const { subject, hear, written } = recorder();
      for (let i = 0; i < KEPT_429_PER_MINUTE + 2; i++) hear(outcome(429, key(1), { error: 'Too many requests' }));
      await subject.flush();
      for (let i = 0; i < 3; i++) hear(outcome(429, key(1), { error: 'Too many requests' }));
      hear(outcome(429, key(2), { error: 'Too many requests' }));
      await subject.flush();
      jest.setSystemTime(Date.UTC(2026, 0, 1, 10, 1, 5));
      hear(outcome(429, key(1), { error: 'Too many requests' }));
      await subject.flush();

      const minute = Date.UTC(2026, 0, 1, 10, 0);
      const places = (i: number) =>
        written[i].failures.map((f) => [f.keyId, f.foldMinute?.getTime(), f.foldSlot, f.count]);
      expect(places(0)).toEqual([
        ...Array.from({ length: KEPT_429_PER_MINUTE }, (_, slot) => [1, minute, slot, 1]),
        [1, minute, KEPT_429_PER_MINUTE, 2],
      ]);
      expect(places(1)).toEqual([
        [1, minute, KEPT_429_PER_MINUTE, 3],
        [2, minute, 0, 1],
      ]);
      expect(places(2)).toEqual([[1, minute + 60_000, 0, 1]]);
      // Every 429 is still counted as a request.
      expect(written.flatMap((w) => w.counts).reduce((sum, c) => sum + c.count, 0)).toBe(KEPT_429_PER_MINUTE + 7);
    } finally {
      jest.useRealTimers();
    }
  });

  it('keeps an error text with a NUL, and without the values the request sent', async () => {
    const { subject, hear, written } = recorder();
    hear(outcome(400, key(1), { error: 'items.0: product "a\u0000b" has no size "M"', path: '/x\u0000y' }));
    hear(
      outcome(400, key(1), {
        error: 'types must list event types or prefixes such as order.*: "ivanova@example.com" is neither',
      }),
    );
    await subject.flush();
    expect(written[0].failures.map((f) => [f.error, f.path])).toEqual([
      ['items.0: product "…" has no size "…"', '/x\uFFFDy'],
      ['types must list event types or prefixes such as order.*: "…" is neither', '/orders/admin/7'],
    ]);
  });

  it('leaves out sessions, site keys, webhooks, and keys refused with 401', async () => {
    const { subject, hear, write } = recorder();
    hear(outcome(200, { kind: 'user', id: 1 }));
    hear(outcome(404, { kind: 'site_key', id: 1 }));
    hear(outcome(400, { kind: 'webhook', id: 0 }));
    // The fast lane leaves a known key's principal on its 401 (revoked since): not identified.
    hear(outcome(401, key(1), { error: 'Unauthorized' }));
    await subject.flush();
    expect(write).not.toHaveBeenCalled();
  });

  it('keeps the Idempotency-Key, and nothing shaped like a key or a token', async () => {
    const { subject, hear, written } = recorder();
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOjF9.c2lnbmF0dXJl';
    hear(
      outcome(404, key(1), {
        path: `/orders/admin/${KEY}/x/${'f'.repeat(48)}`,
        error: `Unknown ${jwt}`,
        headers: { 'idempotency-key': 'order-77' },
        requestId: 'f'.repeat(48),
      }),
    );
    await subject.flush();
    const [failure] = written[0].failures;
    expect(failure.idempotencyKey).toBe('order-77');
    expect(failure.path).toBe('/orders/admin/[redacted]/x/[redacted]');
    expect(failure.error).toBe('Unknown [redacted]');
    expect(failure.requestId).toBe('[redacted]');
    expect(JSON.stringify(written)).not.toMatch(/csh_at_a|eyJ|f{48}/);
  });

  it('gives a write it could not make to the next flush, adding up exactly', async () => {
    const { subject, hear, write, written } = recorder();
    write.mockRejectedValueOnce(new Error('connection lost'));
    hear(outcome(200, key(1)));
    hear(outcome(422, key(1)));
    await subject.flush();
    hear(outcome(200, key(1)));
    await subject.flush();
    expect(write).toHaveBeenCalledTimes(2);
    expect(written.at(-1)!.counts).toEqual([
      { keyId: 1, method: 'POST', route: '/orders/admin/:orderId', status: 200, count: 2 },
      { keyId: 1, method: 'POST', route: '/orders/admin/:orderId', status: 422, count: 1 },
    ]);
    expect(written.at(-1)!.failures).toHaveLength(1);
  });

  it('drops only the rows the database refuses for their content, writing the rest apart', async () => {
    const { subject, hear, write, written } = recorder();
    const tooLong = () =>
      new QueryFailedError(
        'INSERT',
        [],
        Object.assign(new Error('value too long for type character varying(64)'), { code: '22001' }),
      );
    write.mockImplementation(async (counts, failures) => {
      if (failures.some((f) => f.status === 422)) throw tooLong();
      written.push({ counts: [...counts], failures: [...failures] });
      return Promise.resolve();
    });
    hear(outcome(400, key(1)));
    hear(outcome(422, key(1)));
    hear(outcome(404, key(2)));
    await subject.flush();
    expect(written).toEqual([
      {
        counts: [expect.objectContaining({ keyId: 1, status: 400 }), expect.anything(), expect.anything()],
        failures: [],
      },
      { counts: [], failures: [expect.objectContaining({ status: 400 })] },
      { counts: [], failures: [expect.objectContaining({ status: 404 })] },
    ]);
    // Nothing refused comes back.
    hear(outcome(200, key(1)));
    await subject.flush();
    expect(written.at(-1)).toEqual({
      counts: [{ keyId: 1, method: 'POST', route: '/orders/admin/:orderId', status: 200, count: 1 }],
      failures: [],
    });
  });

  it('gives what is left to the next flush when the database goes away while writing apart', async () => {
    const { subject, hear, write, written } = recorder();
    const refused = Object.assign(new Error('bad'), { code: '23514' });
    write
      .mockRejectedValueOnce(new QueryFailedError('INSERT', [], refused))
      .mockRejectedValueOnce(new Error('connection lost'));
    hear(outcome(422, key(1)));
    await subject.flush();
    await subject.flush();
    expect(written).toEqual([
      {
        counts: [expect.objectContaining({ status: 422, count: 1 })],
        failures: [expect.objectContaining({ status: 422 })],
      },
    ]);
  });

  it('writes many failures in batches, the counts with the first', async () => {
    const { subject, hear, written } = recorder();
    for (let i = 0; i < 2500; i++) hear(outcome(400, key(1)));
    await subject.flush();
    expect(written.map((w) => [w.counts.length, w.failures.length])).toEqual([
      [1, 1000],
      [0, 1000],
      [0, 500],
    ]);
    expect(written[0].counts[0].count).toBe(2500);
  });

  it('runs one flush at a time: one asked for during another writes what came since', async () => {
    const { subject, hear, write, written } = recorder();
    let release: () => void = () => undefined;
    write.mockImplementationOnce(async (counts, failures) => {
      written.push({ counts: [...counts], failures: [...failures] });
      await new Promise<void>((resolve) => (release = resolve));
    });
    hear(outcome(200, key(1)));
    const first = subject.flush();
    await new Promise((resolve) => setImmediate(resolve));
    hear(outcome(201, key(1)));
    const second = subject.flush();
    await new Promise((resolve) => setImmediate(resolve));
    expect(write).toHaveBeenCalledTimes(1);
    release();
    await Promise.all([first, second]);
    expect(written.map((w) => w.counts.map((c) => c.status))).toEqual([[200], [201]]);
  });

  it('flushes again as soon as a flush ends when a tick found it under way', async () => {
    jest.useFakeTimers();
    try {
      const { subject, hear, write, written } = recorder();
      let release: () => void = () => undefined;
      write.mockImplementationOnce(async (counts, failures) => {
        written.push({ counts: [...counts], failures: [...failures] });
        await new Promise<void>((resolve) => (release = resolve));
      });
      subject.onApplicationBootstrap();
      hear(outcome(200, key(1)));
      await jest.advanceTimersByTimeAsync(1000);
      expect(write).toHaveBeenCalledTimes(1);
      hear(outcome(201, key(1)));
      await jest.advanceTimersByTimeAsync(1000); // this tick finds the first flush still writing
      expect(write).toHaveBeenCalledTimes(1);
      release();
      await jest.advanceTimersByTimeAsync(0);
      expect(written.map((w) => w.counts.map((c) => c.status))).toEqual([[200], [201]]);
      await subject.onApplicationShutdown();
    } finally {
      jest.useRealTimers();
    }
  });

  it('flushes what is counted when the application shuts down', async () => {
    const { subject, hear, written } = recorder();
    subject.onApplicationBootstrap();
    hear(outcome(200, key(5)));
    await subject.onApplicationShutdown();
    expect(written).toEqual([{ counts: [expect.objectContaining({ keyId: 5, count: 1 })], failures: [] }]);
  });

  it('counts a request refused before the guards for its key when the key is good', async () => {
    const { subject, hear, identify, written } = recorder();
    identify.mockResolvedValueOnce(7).mockResolvedValueOnce(null);
    hear(outcome(413, null, { error: 'Payload too large', headers: { authorization: `Bearer ${KEY}` } }));
    hear(outcome(400, null, { headers: { authorization: `Bearer csh_at_${'b'.repeat(64)}` } }));
    // No key, another credential, or a success: nothing to look up.
    hear(outcome(404, null));
    hear(outcome(400, null, { headers: { authorization: 'Bearer eyJ.x.y' } }));
    hear(outcome(200, null, { headers: { authorization: `Bearer ${KEY}` } }));
    await subject.onApplicationShutdown();
    expect(identify).toHaveBeenCalledTimes(2);
    expect(identify).toHaveBeenCalledWith(KEY, '10.0.0.9');
    expect(written).toHaveLength(1);
    expect(written[0].counts).toEqual([expect.objectContaining({ keyId: 7, status: 413, count: 1 })]);
    expect(written[0].failures).toEqual([expect.objectContaining({ keyId: 7, error: 'Payload too large' })]);
  });
});

describe('RequestRecorder identifying refused requests', () => {
  const refused = (token: string) => outcome(404, null, { route: null, headers: { authorization: `Bearer ${token}` } });

  it('looks a repeated unknown key up in the database once', async () => {
    const { subject, hear, identify, write } = recorder();
    const made = `csh_at_${'c'.repeat(64)}`;
    hear(refused(made));
    hear(refused(made)); // while the first lookup is under way
    await subject.onApplicationShutdown();
    hear(refused(made)); // after it found no good key
    hear(refused(made));
    await subject.onApplicationShutdown();
    expect(identify).toHaveBeenCalledTimes(1);
    expect(write).not.toHaveBeenCalled();
  });

  it('counts a key this instance knows as good without a query', async () => {
    const { subject, hear, identify, knownIdOf, written } = recorder();
    knownIdOf.mockReturnValue(4);
    hear(refused(KEY));
    hear(refused(KEY));
    await subject.flush();
    expect(identify).not.toHaveBeenCalled();
    expect(written[0].counts).toEqual([expect.objectContaining({ keyId: 4, status: 404, count: 2 })]);
  });

  it('counts every request of a good key found while its lookup was under way', async () => {
    const { subject, hear, identify, written } = recorder();
    identify.mockResolvedValueOnce(9);
    hear(refused(KEY));
    hear(refused(KEY));
    await subject.onApplicationShutdown();
    expect(identify).toHaveBeenCalledTimes(1);
    expect(written[0].counts).toEqual([expect.objectContaining({ keyId: 9, count: 2 })]);
  });
});
