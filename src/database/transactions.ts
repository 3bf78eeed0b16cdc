import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';

/** A transaction's handle, passed to the repositories whose statements must commit together. */
export type Tx = EntityManager;

const committedHooks = new WeakMap<Tx, Array<() => void>>();

/**
 * Where services open transactions: they hold no DataSource, so every statement they run is a
 * repository's. The handle is passed on to each repository taking part.
 */
@Injectable()
export class Transactions {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async run<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    const hooks: Array<() => void> = [];
    const result = await this.db.transaction((tx) => {
      committedHooks.set(tx, hooks);
      return work(tx);
    });
    for (const hook of hooks) hook();
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
