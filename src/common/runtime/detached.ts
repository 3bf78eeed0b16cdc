import { AsyncResource } from 'node:async_hooks';

/** The async context this module was loaded in: at start-up, before any request. */
const START_UP = new AsyncResource('detached');

/**
 * Runs `work` outside the caller's async context, in the one of start-up. What a request sets off
 * to run later (a worker woken by it, the timers that worker goes on to set) then carries nothing
 * of that request's: not its stores (AsyncLocalStorage), nor its trace, which OpenTelemetry keeps
 * in one of them, so a worker's later rounds are not taken for part of the request that woke it.
 */
export function detached<T>(work: () => T): T {
  return START_UP.runInAsyncScope(work);
}
