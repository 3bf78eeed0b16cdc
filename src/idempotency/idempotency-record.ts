import { deserialize, serialize } from 'node:v8';
import type { EntityManager } from 'typeorm';
import type { RequestCommits } from '../database/request-commits';
import type { IdempotencyRepository } from './idempotency.repository';

interface Effect {
  tag: string;
  result: unknown;
}

/**
 * The commit log of one keyed request (RequestCommits), kept in its idempotency_keys row: each
 * write records its result in its own transaction. A run that takes over an abandoned claim gets
 * the abandoned run's results back write by write, so the handler walks the same path to the
 * same answer without changing anything twice. Results are kept with V8's serializer, which
 * keeps the Maps, Dates and Buffers that services pass between a transaction and their answer.
 */
export class IdempotencyRecord implements RequestCommits {
  private readonly committed: Array<Effect | undefined>;
  private closed = false;

  constructor(
    private readonly keys: IdempotencyRepository,
    private readonly claim: { scope: string; key: string; claimId: string },
    effects: Buffer[],
  ) {
    this.committed = effects.map((effect) => deserialize(effect) as Effect);
  }

  /**
   * The earliest unreplayed result with this tag. Tags let a path that differs only in writes
   * that changed nothing (a statement tried in a cheaper form first) still find its results.
   */
  replay(tag: string): { result: unknown } | undefined {
    if (this.closed) return undefined;
    const index = this.committed.findIndex((effect) => effect?.tag === tag);
    if (index < 0) return undefined;
    const effect = this.committed[index]!;
    this.committed.fill(undefined, 0, index + 1);
    return { result: effect.result };
  }

  async record(tx: EntityManager, tag: string, result: unknown): Promise<void> {
    if (this.closed) return;
    const effect: Effect = { tag, result };
    await this.keys.record(tx, this.claim.scope, this.claim.key, this.claim.claimId, serialize(effect));
  }

  /** The request has answered: work it set off that runs on belongs to it no more. */
  close(): void {
    this.closed = true;
  }
}
