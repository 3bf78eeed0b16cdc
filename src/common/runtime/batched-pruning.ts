/** One batch of a pruning: how many rows it removed, and whether more may be waiting (it was full). */
export interface PruneBatch {
  removed: number;
  more: boolean;
}

/** The least a pruning waits between batches: the writes it shares the tables with take their turn. */
export const PRUNE_PAUSE_MS = 20;

/**
 * And at least this many times the last batch's own time: a pruning takes at most a fifth of a
 * database connection's time. At a 20 ms pause alone, a month of a million-order store was pruned
 * in about 150 s and the storefront webhook's p99 at 150 orders a second rose from 151 to 667 ms
 * (bench:scale, 2026-12-07).
 */
export const PRUNE_PAUSE_FACTOR = 4;

/**
 * The rows a batch of a pruning looks at, at most: a batch is a short transaction whatever the
 * table holds. Written into the statements as a constant: under the service's generic plans a
 * `LIMIT $n` is planned as a tenth of the table, and a delete joined to such a batch by hashing
 * read the whole table (12 s a batch at 6 million events).
 */
export const PRUNE_BATCH = 2000;

/**
 * Runs the batches of one pruning (each one statement, its own transaction) until one says
 * nothing more is waiting or `stopped` says the instance is stopping: the work a run does grows
 * with what is due, never with what the table keeps, and no transaction holds many rows' locks.
 * The number of rows removed in all.
 */
export async function pruneInBatches(
  batch: () => Promise<PruneBatch>,
  stopped: () => boolean = () => false,
): Promise<number> {
  let removed = 0;
  for (;;) {
    const started = Date.now();
    const done = await batch();
    removed += done.removed;
    if (!done.more || stopped()) return removed;
    const pause = Math.max(PRUNE_PAUSE_MS, PRUNE_PAUSE_FACTOR * (Date.now() - started));
    await new Promise((resolve) => setTimeout(resolve, pause));
  }
}
