import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { isDeadlock } from '../common/errors/pg-errors';
import { outsideRequestCommits, requestCommits } from './request-commits';

/** A transaction's handle, passed to the repositories whose statements must commit together. */
export type Tx = EntityManager;

const TRANSACTION = 'transaction';
const committedHooks = new WeakMap<Tx, Array<() => void>>();

/**
 * Where services open transactions: they hold no DataSource, so every statement they run is a
 * repository's. The handle is passed on to each repository taking part.
 */
@Injectable()
export class Transactions {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * Within a request that keeps a log of its commits (RequestCommits), the result is recorded in
   * the transaction, and a transaction the request committed before it was cut short is not run
   * again: its recorded result is returned.
   */
  async run<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    const commits = requestCommits();
    const replayed = commits?.replay(TRANSACTION);
    if (replayed) return replayed.result as T;
    let hooks: Array<() => void> = [];
    const attempt = () => {
      hooks = [];
      return this.db.transaction(async (tx) => {
        committedHooks.set(tx, hooks);
        const result = await work(tx);
        await commits?.record(tx, TRANSACTION, result);
        return result;
      });
    };
    const result = await retryDeadlocks(attempt);
    // Hooks wake background work, which belongs to no request.
    outsideRequestCommits(() => {
      for (const hook of hooks) hook();
    });
    return result;
  }

  /**
   * Runs `hook` once `tx` has committed (never when it rolls back). A handle that is no
   * transaction of `run`'s commits each statement as it runs: the hook runs at once.
   */
  static afterCommit(tx: Tx, hook: () => void): void {
    const hooks = committedHooks.get(tx);
    if (hooks) hooks.push(hook);
    else hook();
  }
}

const DEADLOCK_ATTEMPTS = 3;

/** Runs a transaction again when PostgreSQL chose it as a deadlock's victim (it was rolled back whole). */
export async function retryDeadlocks<T>(attempt: () => Promise<T>): Promise<T> {
  for (let tries = 1; ; tries++) {
    try {
      return await attempt();
    } catch (error) {
      if (tries >= DEADLOCK_ATTEMPTS || !isDeadlock(error)) throw error;
    }
  }
}
