/** One key's count for one method, route and status, as the flush writes it. */
export interface TallyRow {
  keyId: number;
  method: string;
  /** The route's template; empty when no route matched. */
  route: string;
  status: number;
  count: number;
}

type ByStatus = Map<number, number>;
type ByRoute = Map<string, ByStatus>;
type ByMethod = Map<string, ByRoute>;

/**
 * The requests counted since the last flush, per key, method, route and status. Counting one is
 * four map lookups and no allocation once a combination has been seen: it runs on every request
 * of an integration key, so nothing is written to the database there. `take` hands the counts to
 * the flush and starts afresh, so nothing is written twice.
 */
export class RequestTally {
  private byKey = new Map<number, ByMethod>();

  add(keyId: number, method: string, route: string | null, status: number, count = 1): void {
    let methods = this.byKey.get(keyId);
    if (methods === undefined) this.byKey.set(keyId, (methods = new Map<string, ByRoute>()));
    let routes = methods.get(method);
    if (routes === undefined) methods.set(method, (routes = new Map<string, ByStatus>()));
    const template = route ?? '';
    let statuses = routes.get(template);
    if (statuses === undefined) routes.set(template, (statuses = new Map<number, number>()));
    statuses.set(status, (statuses.get(status) ?? 0) + count);
  }

  get isEmpty(): boolean {
    return this.byKey.size === 0;
  }

  /**
   * Everything counted so far, in one fixed order (so instances adding to the same rows lock
   * them in the same order), and an empty tally from now on.
   */
  take(): TallyRow[] {
    const taken = this.byKey;
    this.byKey = new Map();
    const rows: TallyRow[] = [];
    for (const [keyId, methods] of taken)
      for (const [method, routes] of methods)
        for (const [route, statuses] of routes)
          for (const [status, count] of statuses) rows.push({ keyId, method, route, status, count });
    return rows.sort(inLockOrder);
  }

  /** Counts a flush could not write, back for the next one. */
  restore(rows: readonly TallyRow[]): void {
    for (const row of rows) this.add(row.keyId, row.method, row.route, row.status, row.count);
  }
}

function inLockOrder(a: TallyRow, b: TallyRow): number {
  return a.keyId - b.keyId || compare(a.method, b.method) || compare(a.route, b.route) || a.status - b.status;
}

const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
