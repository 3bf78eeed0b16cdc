import type { EntityManager } from 'typeorm';
import { Transactions } from '../database/transactions';
import type { DomainEventSubscriber } from './domain-event-subscriber';
import { DomainEvents } from './domain-events';
import { keptEventPart, type EventPart } from './domain-events.sql';
import type { EventColumns } from './event-columns';
import type { EventsCommitted } from './events-committed';

/** These specs build statements; nothing waits for their events. */
const UNHEARD = { signal: () => undefined } as unknown as EventsCommitted;

const part: EventPart = {
  subject: 'order',
  brandId: 'o.brand_id',
  subjectId: 'o.id',
  type: '$2',
  data: (sequence) => `jsonb_build_object('orderId', o.id, 'sequence', ${sequence})`,
  from: '(SELECT * FROM orders WHERE id = $1) AS o',
};

const subscriber = (name: string): DomainEventSubscriber & { committed: jest.Mock } => ({
  wants: (brandId, types) => `${name}_wants(${brandId}, ${types.join(', ')})`,
  ctes: (events) => `${name}_work AS (INSERT INTO ${name}_rows SELECT type FROM ${events} RETURNING 1)`,
  written: `(SELECT count(*) FROM ${name}_work)::int`,
  committed: jest.fn(),
});

/** A transaction handle that answers every statement with `written` and keeps the texts. */
const txAnswering = (written: number) => {
  const texts: string[] = [];
  const tx = { query: async (text: string) => (texts.push(text), [{ written }]) } as unknown as EntityManager;
  return { tx, texts };
};

describe('DomainEvents', () => {
  afterEach(() => jest.restoreAllMocks());

  it('composes every subscriber into the statement that records an event', () => {
    const events = new DomainEvents(UNHEARD);
    events.subscribe(subscriber('a'));
    events.subscribe(subscriber('b'));
    const text = events.sql.append(part);
    expect(text).toContain('INSERT INTO domain_events');
    expect(text).toContain('a_work AS (INSERT INTO a_rows SELECT type FROM domain_event');
    expect(text).toContain('b_work AS (INSERT INTO b_rows SELECT type FROM domain_event');
    expect(text).toContain(
      'SELECT ((SELECT count(*) FROM a_work)::int) + ((SELECT count(*) FROM b_work)::int) AS written',
    );
    expect(events.sql.wanted('$1', [`'order.created'`, `'stock.changed'`])).toBe(
      `(a_wants($1, 'order.created', 'stock.changed') OR b_wants($1, 'order.created', 'stock.changed'))`,
    );
    // Alone: the events recorded, no subscriber's part.
    expect(events.sql.alone.append(part)).toContain('INSERT INTO domain_events');
    expect(events.sql.alone.append(part)).not.toContain('a_work');
    expect(events.sql.alone.written).toBe('0');
  });

  it('records the event alone when nothing subscribes, returning nothing no one reads', () => {
    const sql = new DomainEvents(UNHEARD).sql;
    expect(sql.append(part)).toMatch(/ORDER BY ev\.subject, ev\.subject_id\s*\) SELECT 0 AS written$/);
    expect(sql.wanted('$1', [`'order.created'`])).toBe('false');
  });

  it('records the rows of several parts in one insert, looking up only the subjects whose numbers it does not know', () => {
    const text = new DomainEvents(UNHEARD).sql.append([
      part,
      { ...part, subject: 'product', numbered: { sequence: 'o.n', position: 'o.p' } },
      { ...part, first: true },
    ]);
    expect(text.match(/INSERT INTO domain_events/g)).toHaveLength(1);
    expect(text.match(/UNION ALL/g)).toHaveLength(2);
    expect(text.match(/LEFT JOIN LATERAL/g)).toHaveLength(1);
    // After its last event, else the numbers its pruned events left (EventsPruning).
    expect(text.match(/LEFT JOIN domain_event_floors/g)).toHaveLength(1);
    expect(text).toContain(
      '(COALESCE(GREATEST(last.sequence, pruned.sequence), 0) + 1)::int, (GREATEST(domain_event_position(), last.position, pruned.position))::bigint',
    );
    expect(text).toContain('(o.n)::int, (GREATEST(domain_event_position(), o.p))::bigint');
    expect(text).toContain('(1)::int, (domain_event_position())::bigint');
  });

  it("keeps an owner's events in its columns, which the other events leave empty, and gives subscribers them whole", () => {
    const columns: EventColumns<'amount' | 'note'> = {
      subject: 'size',
      columns: { amount: ['kept_amount', 'int'], note: ['kept_note', 'text'] },
      data: (alias) => `jsonb_build_object('amount', ${alias}.kept_amount, 'note', ${alias}.kept_note)`,
    };
    const kept = keptEventPart({
      brandId: 'u.brand_id',
      subjectId: 'u.id',
      type: `'size.kept'`,
      columns,
      values: { amount: 'u.amount', note: 'u.note' },
      from: 'updated AS u',
      numbered: { sequence: 'u.n', position: 'u.p' },
    });
    const text = new DomainEvents(UNHEARD).sql.append([part, kept]);
    expect(text).toContain('sequence, position, kept_amount, kept_note)');
    expect(text).toMatch(/'size'::text, \(u\.id\)::int, \('size\.kept'\)::text, NULL::jsonb,/);
    expect(text).toContain('(GREATEST(domain_event_position(), u.p))::bigint, (u.amount)::int, (u.note)::text');
    expect(text).toMatch(/::bigint, NULL::int, NULL::text\n/);
    expect(new DomainEvents(UNHEARD).sql.append(part)).not.toContain('kept_');

    const events = new DomainEvents(UNHEARD);
    events.subscribe(subscriber('a'));
    events.keep(columns);
    expect(events.sql.append(kept)).toContain(
      "RETURNING e.id, e.brand_id, e.type, COALESCE(e.data, jsonb_build_object('amount', e.kept_amount, 'note', e.kept_note)) AS data",
    );
    // A statement writing no kept event returns every event's data as it is.
    expect(events.sql.append(part)).toContain('RETURNING e.id, e.brand_id, e.type, e.data AS data');
    expect(events.sql.data('r')).toBe(
      "COALESCE(r.data, jsonb_build_object('amount', r.kept_amount, 'note', r.kept_note))",
    );
  });

  it('reads the data of several ways of keeping by the subject', () => {
    const events = new DomainEvents(UNHEARD);
    events.keep({ subject: 'size', columns: {}, data: () => 'a()' });
    events.keep({ subject: 'product', columns: {}, data: () => 'b()' });
    expect(events.sql.data('r')).toBe(
      "COALESCE(r.data, CASE r.subject WHEN 'size' THEN a() WHEN 'product' THEN b() END)",
    );
    expect(() => events.keep({ subject: 'order', columns: {}, data: () => 'c()' })).toThrow(
      'after the statements were built',
    );
  });

  it('records a state left as it was only when asked to record every change', () => {
    const text = new DomainEvents(UNHEARD).sql.append({ ...part, unlessUnchanged: true });
    expect(text).toContain("IS DISTINCT FROM (SELECT e.data - 'sequence' FROM domain_events e");
    expect(new DomainEvents(UNHEARD).sql.append(part)).not.toContain('IS DISTINCT FROM');
  });

  it('refuses a subscriber once the statements are built, which would leave its work unwritten', () => {
    const events = new DomainEvents(UNHEARD);
    void events.sql;
    expect(() => events.subscribe(subscriber('late'))).toThrow('after the statements were built');
  });

  it('tells the subscribers after the commit of a transaction that wrote their work, and builds the statement once', async () => {
    const events = new DomainEvents(UNHEARD);
    const a = subscriber('a');
    events.subscribe(a);
    const hooks: Array<() => void> = [];
    jest.spyOn(Transactions, 'afterCommit').mockImplementation((_tx, hook) => void hooks.push(hook));
    const { tx, texts } = txAnswering(2);
    await events.append(tx, part, [1, 'order.paid']);
    await events.append(tx, part, [1, 'order.shipped']);
    expect(texts).toHaveLength(2);
    expect(texts[1]).toBe(texts[0]);
    expect(a.committed).not.toHaveBeenCalled();
    hooks.forEach((hook) => hook());
    expect(a.committed).toHaveBeenCalledTimes(2);
  });

  it('tells the subscribers nothing, and the readers every commit, when the statement wrote no subscriber work', async () => {
    const signal = jest.fn();
    const events = new DomainEvents({ signal } as unknown as EventsCommitted);
    const a = subscriber('a');
    events.subscribe(a);
    const hooks: Array<() => void> = [];
    jest.spyOn(Transactions, 'afterCommit').mockImplementation((_tx, hook) => void hooks.push(hook));
    await events.append(txAnswering(0).tx, part, [1, 'order.paid']);
    expect(signal).not.toHaveBeenCalled();
    hooks.forEach((hook) => hook());
    expect(signal).toHaveBeenCalledTimes(1);
    expect(a.committed).not.toHaveBeenCalled();
    events.committed(1);
    expect(a.committed).toHaveBeenCalledTimes(1);
    expect(signal).toHaveBeenCalledTimes(2);
  });
});
