/**
 * How an owner keeps its events' data in typed columns of domain_events instead of `data` (which
 * is NULL for them): where each field goes and its SQL type, and how the event's data is read back
 * from a row. Its migration adds the columns; it registers this with DomainEvents (keep) before
 * any statement is built. Typed columns cost PostgreSQL far less to write than a jsonb built for
 * each event (docs/performance.md, PERF-28).
 */
export interface EventColumns<F extends string = string> {
  /** Every event of this subject is kept so, and no other subject's. */
  subject: string;
  /** Each kept field's column and SQL type. */
  columns: { readonly [K in F]: readonly [column: string, type: string] };
  /**
   * The event's data as a jsonb expression over the row `alias` (its columns, `subject_id`,
   * `sequence`), the object its class describes: the webhook messages and the events API both read
   * it so, and jsonb keeps no key order, so both give the same object.
   */
  data: (alias: string) => string;
}

/** SQL expressions of the values to keep, by field. */
export type KeptValues<F extends string> = { readonly [K in F]: string };

/** The kept fields of `kept`, in one fixed order: their columns and the values' order in a row. */
export const keptFields = <F extends string>(kept: EventColumns<F>) => Object.keys(kept.columns) as F[];

/** An event's data as its row `alias` holds it, whichever way its owner keeps it. */
export function eventDataFrom(alias: string, kept: readonly EventColumns[]): string {
  if (kept.length === 0) return `${alias}.data`;
  // With one way of keeping, every row of another subject has its data: no CASE on the subject needed.
  if (kept.length === 1) return `COALESCE(${alias}.data, ${kept[0].data(alias)})`;
  const arms = kept.map((k) => `WHEN '${k.subject}' THEN ${k.data(alias)}`).join(' ');
  return `COALESCE(${alias}.data, CASE ${alias}.subject ${arms} END)`;
}
