import { jsonbObjectOf, type SqlFieldsOf } from '../database/json-object.sql';
import type { DomainEventSubject } from './domain-event.entity';
import type { DomainEventSubscriber } from './domain-event-subscriber';
import type { EventData } from './dto/event-data';
import { eventDataFrom, keptFields, type EventColumns, type KeptValues } from './event-columns';

/** An event's data (jsonb) given the SQL expression of its sequence, which it carries with the rest. */
export type EventDataSql = (sequence: string) => string;

/**
 * An event's data as the owner of its subject builds it, from the class that describes it: every
 * field but `sequence`, which the append gives (appendCtes). Built in one call with it, instead of
 * adding it to an object built first: a storefront order builds one a size and one more (PERF-27).
 */
export const eventDataOf =
  <T extends EventData>(fields: SqlFieldsOf<Omit<T, 'sequence'>>): EventDataSql =>
  (sequence) =>
    jsonbObjectOf<EventData>({ ...fields, sequence });

interface EventPartBase {
  subject: DomainEventSubject;
  brandId: string;
  subjectId: string;
  type: string;
  /**
   * One FROM item (a join tree, not a comma list: the last-event lookup is joined to it); each of
   * its rows (where `condition` holds) is one event, of a subject no other row names.
   */
  from: string;
  /** Recorded only when this holds. */
  condition?: string;
  /**
   * Recorded only when `data` differs from the subject's last event's (its `sequence` aside): for
   * an owner that reports the state a change left, so a change that left it as it was records nothing.
   */
  unlessUnchanged?: boolean;
  /**
   * The event's sequence and the position below which it may not go, when the owner keeps them on
   * the subject's row (read from the row its own statement updated): a statement that takes the
   * subject's lock itself reads other tables with the snapshot it began with, which misses an event
   * committed while it waited. Otherwise both come from the subject's last event, or, for a
   * subject created by the statement (`first`), are 1 and this transaction's.
   */
  numbered?: { sequence: string; position: string };
  /** The subject is new in this statement (its INSERT is in it): its event is its first, nothing to look up. */
  first?: boolean;
}

/** Events whose data is a jsonb expression over `from`, given the event's `sequence` (eventDataOf). */
interface JsonEventPart extends EventPartBase {
  data: EventDataSql;
  kept?: never;
}

/**
 * Events whose owner keeps their data in columns (EventColumns), numbered by the subject's row: no
 * last event is looked up. The values are SQL expressions over `from`.
 */
interface KeptEventPart extends EventPartBase {
  kept: { columns: EventColumns; values: KeptValues<string> };
  numbered: NonNullable<EventPartBase['numbered']>;
  data?: never;
  unlessUnchanged?: never;
}

export type EventPart = JsonEventPart | KeptEventPart;

/** A part of events kept in `columns`, typed by its fields. */
export const keptEventPart = <F extends string>(
  part: Omit<KeptEventPart, 'kept' | 'subject'> & { columns: EventColumns<F>; values: KeptValues<F> },
): EventPart => {
  const { columns, values, ...rest } = part;
  return { ...rest, subject: columns.subject, kept: { columns, values } };
};

/**
 * The domain events' statement parts (contract §10): the owner of a subject appends its events
 * with them, in the transaction of the change, from its own row, so the event carries the state
 * the change left; what the subscribers write for the events (DomainEventSubscriber) is part of
 * the same statement. Arguments are SQL expressions of the calling statement.
 */
export interface DomainEventsSql {
  /** True when some subscriber wants events of the brand of one of `types` (SQL text expressions). */
  wanted(brandId: string, types: readonly string[]): string;
  /** An event's data as its row `alias` of domain_events holds it, however its owner keeps it. */
  data(alias: string): string;
  /** The same parts without the subscribers': events recorded, nothing else written (`written` is 0). */
  alone: DomainEventsSql;
  /**
   * CTEs appending the events the parts yield, each numbered and positioned after its subject's
   * last (the caller holds each subject's row lock, so numbers never collide, the unique key
   * backing that up but for sizes, numbered by their row's counter under that lock, and the last
   * event's transaction has ended or is this one), and the
   * subscribers' writes for them. One call a statement: its CTE names are fixed.
   */
  appendCtes(parts: EventPart | readonly EventPart[]): string;
  /** After appendCtes: how many units of work the subscribers wrote (an int). */
  written: string;
  /** A statement appending the parts' events; its one row's `written` is the subscribers' work. */
  append(parts: EventPart | readonly EventPart[]): string;
}

/**
 * An event's position (contract §16) is at least its transaction's id, so it stays at or above
 * the readers' horizon (EventsRepository) while that transaction runs, and at least its
 * subject's previous event's, so one subject's events are read in sequence even when a later
 * one's transaction has the smaller id. `domain_event_position()` (the column's default, from its
 * migration) is pg_current_xact_id() as a bigint.
 */
const POSITION_OF_THIS_TRANSACTION = 'domain_event_position()';

/** A part whose owner does not know the numbers: its subject's last event is read. */
const lookedUp = (p: EventPart) => !p.numbered && !p.first;

/** The columns each way of keeping in `kinds` adds to a row, in order. */
const keptColumns = (kinds: readonly EventColumns[]) =>
  kinds.flatMap((kind) => keptFields(kind).map((field) => kind.columns[field][0]));

/**
 * One part's events as rows of (brand_id, subject, subject_id, type, data, sequence, position),
 * then the columns of each way of keeping in `kinds` (NULL but for the part's own). A part whose
 * owner knows the numbers (numbered, first) costs no lookup; any other reads its subject's last event.
 */
function eventRows(p: EventPart, kinds: readonly EventColumns[]): string {
  const conditions = [
    p.condition,
    p.unlessUnchanged && p.data
      ? `${p.data('NULL')} - 'sequence' IS DISTINCT FROM (SELECT e.data - 'sequence' FROM domain_events e
                WHERE e.subject = '${p.subject}' AND e.subject_id = ${p.subjectId} ORDER BY e.sequence DESC LIMIT 1)`
      : undefined,
  ].filter(Boolean);
  const known = p.numbered
    ? { sequence: p.numbered.sequence, position: `GREATEST(${POSITION_OF_THIS_TRANSACTION}, ${p.numbered.position})` }
    : p.first
      ? { sequence: '1', position: POSITION_OF_THIS_TRANSACTION }
      : {
          sequence: 'COALESCE(GREATEST(last.sequence, pruned.sequence), 0) + 1',
          position: `GREATEST(${POSITION_OF_THIS_TRANSACTION}, last.position, pruned.position)`,
        };
  // A subject whose events were all pruned (EventsPruning) goes on from the last one's numbers, kept in domain_event_floors.
  const last = !lookedUp(p)
    ? ''
    : `
               LEFT JOIN LATERAL (SELECT e.sequence, e.position FROM domain_events e
                                   WHERE e.subject = '${p.subject}' AND e.subject_id = (${p.subjectId})
                                   ORDER BY e.sequence DESC LIMIT 1) AS last ON true
               LEFT JOIN domain_event_floors AS pruned
                      ON pruned.subject = '${p.subject}' AND pruned.subject_id = (${p.subjectId})`;
  const data = p.data ? p.data(`(${known.sequence})::int`) : 'NULL::jsonb';
  const kept = kinds.flatMap((kind) =>
    keptFields(kind).map((field) => {
      const type = kind.columns[field][1];
      return p.kept?.columns === kind ? `, (${p.kept.values[field]})::${type}` : `, NULL::${type}`;
    }),
  );
  return `SELECT (${p.brandId})::int, '${p.subject}'::text, (${p.subjectId})::int, (${p.type})::text, ${data},
                 (${known.sequence})::int, (${known.position})::bigint${kept.join('')}
          FROM ${p.from}${last}${conditions.length ? ` WHERE ${conditions.join(' AND ')}` : ''}`;
}

/**
 * The parts for these subscribers (none: events are recorded and nothing else is written), and
 * the ways owners keep events in columns (`kept`), which reading an event's data must know.
 */
export function domainEventsSql(
  subscribers: readonly DomainEventSubscriber[],
  kept: readonly EventColumns[] = [],
): DomainEventsSql {
  const written = subscribers.length ? subscribers.map((s) => `(${s.written})`).join(' + ') : '0';
  const sql: DomainEventsSql = {
    wanted: (brandId, types) =>
      subscribers.length ? `(${subscribers.map((s) => s.wants(brandId, types)).join(' OR ')})` : 'false',
    data: (alias) => eventDataFrom(alias, kept),
    get alone() {
      return subscribers.length ? domainEventsSql([], kept) : sql;
    },
    appendCtes: (parts) => {
      const all = [parts].flat();
      // Only the ways of keeping this statement writes: its other events all have their data.
      const kinds = [...new Set(all.flatMap((p) => (p.kept ? [p.kept.columns] : [])))];
      const columns = [
        ...['brand_id', 'subject', 'subject_id', 'type', 'data', 'sequence', 'position'],
        ...keptColumns(kinds),
      ].join(', ');
      const rows = all.map((p) => eventRows(p, kinds)).join('\n         UNION ALL ');
      const returning = `\n       RETURNING e.id, e.brand_id, e.type, ${eventDataFrom('e', kinds)} AS data, e.occurred_at`;
      return [
        `domain_event AS (
       INSERT INTO domain_events AS e (${columns})
       SELECT * FROM (${rows})
              AS ev(${columns})${all.some(lookedUp) ? '\n        ORDER BY ev.subject, ev.subject_id' : ''}${subscribers.length ? returning : ''}
     )`,
        ...subscribers.map((s) => s.ctes('domain_event')),
      ].join(',\n     ');
    },
    written,
    append: (parts) => `WITH ${sql.appendCtes(parts)} SELECT ${written} AS written`,
  };
  return sql;
}
