import { AsyncLocalStorage } from 'node:async_hooks';
import type { EntityManager } from 'typeorm';

/**
 * A log that one request's writes commit with: each transaction (and each single-statement
 * write) the request runs records its result in that same transaction, so what committed is
 * known even when the process dies before the answer is stored. A request resumed after such a
 * crash is given those results again, in order, instead of running the writes a second time.
 * The Idempotency-Key interceptor keeps one per keyed request; the database layer knows only
 * this interface.
 */
export interface RequestCommits {
  /** The result the next write tagged `tag` committed before, or undefined when it must run. */
  replay(tag: string): { result: unknown } | undefined;
  /** Inside the write's transaction, after its work: records the result or throws (rolls it back). */
  record(tx: EntityManager, tag: string, result: unknown): Promise<void>;
}

const current = new AsyncLocalStorage<RequestCommits>();

/** Runs `work` with `commits` as the log of every write it makes. */
export function withRequestCommits<T>(commits: RequestCommits, work: () => T): T {
  return current.run(commits, work);
}

export function requestCommits(): RequestCommits | undefined {
  return current.getStore();
}

/**
 * Runs `work` outside any request's log: background work a request sets off (a worker woken
 * by a commit) must neither record into nor replay from the request's log.
 */
export function outsideRequestCommits<T>(work: () => T): T {
  return current.exit(work);
}
