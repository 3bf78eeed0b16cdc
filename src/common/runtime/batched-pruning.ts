/** One batch of a pruning: how many rows it removed, and whether more may be waiting (it was full). */
export interface PruneBatch {
  removed: number;
  more: boolean;
}

/** The least a pruning waits between batches: the writes it shares the tables with take their turn. */
export const PRUNE_PAUSE_MS = 20;

/**
 * And at least this many times the last batch's own time: the prunings of an instance together
 * take at most a fifth of a database connection's time. In one turn (inTurn), a month of a
 * million-order store (4.3 million rows) was pruned in 312 s and the storefront webhook's p99 at
 * 150 orders a second did not move; the three prunings each pausing on its own took 125 s and
 * moved it by 24 % (bench:scale, 2026-12-07; PERF-34).
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
 * The turn of this process's prunings (events, request log, webhook log): one batch at a time,
 * and the pause after it before any next one, so prunings due together add their work in turn,
 * not at once.
 */
let turn: Promise<void> = Promise.resolve();

function inTurn<T>(work: () => Promise<T>): Promise<T> {
  let took = 0;
  const done = turn.then(async () => {
    const started = Date.now();
    try {
      return await work();
    } finally {
      took = Date.now() - started;
    }
  });
  const pause = () =>
    new Promise<void>((resolve) => {
      // Unreferenced: a pause does not keep a stopping process alive.
      setTimeout(resolve, Math.max(PRUNE_PAUSE_MS, PRUNE_PAUSE_FACTOR * took)).unref();
    });
  turn = done.then(pause, pause);
  return done;
}

/**
 * Runs the batches of one pruning (each one statement, its own transaction) in this process's
 * turn until one says nothing more is waiting or `stopped` says the instance is stopping: the
 * work a run does grows with what is due, never with what the table keeps, and no transaction
 * holds many rows' locks. The number of rows removed in all.
 */
export async function pruneInBatches(
  batch: () => Promise<PruneBatch>,
  stopped: () => boolean = () => false,
): Promise<number> {
  let removed = 0;
  while (!stopped()) {
    // Asked again when the turn comes: an instance may have begun to stop during the pause.
    const done = await inTurn(() => (stopped() ? Promise.resolve({ removed: 0, more: false }) : batch()));
    removed += done.removed;
    if (!done.more) break;
  }
  return removed;
}
