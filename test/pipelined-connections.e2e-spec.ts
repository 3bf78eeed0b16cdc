import { Client } from 'pg';
import { isDatabaseUnavailable } from '../src/common/errors/pg-errors';
import { GENERIC_PLANS } from '../src/database/data-source-options';
import { PipelinedConnections } from '../src/database/pipelined-connections';
import { eventually } from './support/eventually';
import { createTestDatabase, withClient, type TestDatabase } from './support/test-database';

/** PipelinedConnections against a real server: answers, failures, lost connections, and a write waiting on a lock. */
describe('PipelinedConnections', () => {
  const app = 'pipelined-connections-spec';
  let db: TestDatabase;
  let pipelines: PipelinedConnections[] = [];

  const pipeline = (size?: number, role: 'reads' | 'writes' = 'reads', idleMs?: number) => {
    const made = new PipelinedConnections(
      { connectionString: db.url, application_name: app, options: GENERIC_PLANS },
      role,
      size,
      idleMs,
    );
    pipelines.push(made);
    return made;
  };
  const backends = () =>
    withClient(db.url, async (c: Client) => {
      const { rows } = await c.query<{ pid: number }>(
        'SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1',
        [app],
      );
      return rows.map((row) => row.pid);
    });
  const twice = { name: 'twice', text: 'SELECT $1::int * 2 AS n', values: [0] };

  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterEach(async () => {
    await Promise.all(pipelines.map((p) => p.close()));
    pipelines = [];
  });
  afterAll(async () => {
    await db?.drop();
  });

  it('answers each of many concurrent statements with its own rows, over its two connections', async () => {
    const statements = pipeline();
    const answers = await Promise.all(
      Array.from({ length: 300 }, (_, i) => statements.query<{ n: number }>({ ...twice, values: [i] })),
    );
    expect(answers.map((rows) => rows[0].n)).toEqual(Array.from({ length: 300 }, (_, i) => i * 2));
    expect(await backends()).toHaveLength(2);
  });

  it('fails a statement alone: those before and behind it on the connection answer', async () => {
    const statements = pipeline(1);
    const outcomes = await Promise.allSettled([
      statements.query({ ...twice, values: [1] }),
      statements.query({ name: 'divide', text: 'SELECT 1 / $1::int AS n', values: [0] }),
      statements.query({ ...twice, values: [3] }),
    ]);
    expect(outcomes[0]).toEqual({ status: 'fulfilled', value: [{ n: 2 }] });
    expect(outcomes[1]).toMatchObject({ status: 'rejected', reason: { code: '22012' } });
    expect(outcomes[2]).toEqual({ status: 'fulfilled', value: [{ n: 6 }] });
  });

  it('fails what a lost connection carried as unavailable, and reconnects for the next statement', async () => {
    const statements = pipeline(1);
    await statements.query({ ...twice, values: [1] });
    const [pid] = await backends();
    const carried = statements.query({ name: 'slow', text: 'SELECT pg_sleep($1::float8) AS slept', values: [5] });
    await withClient(db.url, (c: Client) => c.query('SELECT pg_terminate_backend($1)', [pid]));
    const error = await carried.then(
      () => null,
      (reason: unknown) => reason,
    );
    expect(isDatabaseUnavailable(error)).toBe(true);
    expect(await statements.query({ ...twice, values: [4] })).toEqual([{ n: 8 }]);
    // A terminated backend leaves pg_stat_activity a moment after its client has noticed.
    await eventually(async () => expect(await backends()).not.toContain(pid), 5000, 50);
  });

  it('commits each write as it returns; one waiting on a row lock holds up its own connection only', async () => {
    await withClient(db.url, (c: Client) =>
      c.query('CREATE TABLE counters (id int PRIMARY KEY, n int NOT NULL); INSERT INTO counters VALUES (1, 0), (2, 0)'),
    );
    const writes = pipeline(2, 'writes');
    const bump = (id: number) =>
      writes.query({ name: 'bump', text: 'UPDATE counters SET n = n + 1 WHERE id = $1 RETURNING n', values: [id] });
    const holder = new Client({ connectionString: db.url });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT * FROM counters WHERE id = 1 FOR UPDATE');
      let waitingDone = false;
      const waiting = bump(1).then((rows) => ((waitingDone = true), rows));
      expect(await bump(2)).toEqual([{ n: 1 }]);
      const seen = await withClient(db.url, (c: Client) => c.query('SELECT n FROM counters WHERE id = 2'));
      expect(seen.rows).toEqual([{ n: 1 }]);
      expect(waitingDone).toBe(false);
      await holder.query('COMMIT');
      expect(await waiting).toEqual([{ n: 1 }]);
    } finally {
      await holder.end();
    }
  });

  it('closes a connection left idle, and opens one again for the next statement', async () => {
    const statements = pipeline(2, 'reads', 1000);
    await Promise.all([statements.query({ ...twice, values: [1] }), statements.query({ ...twice, values: [2] })]);
    expect(await backends()).toHaveLength(2);
    await eventually(async () => expect(await backends()).toEqual([]), 5000, 50);
    expect(await statements.query({ ...twice, values: [5] })).toEqual([{ n: 10 }]);
    expect(await backends()).toHaveLength(1);
  });

  it('ends its connections on close and refuses statements after it as unavailable', async () => {
    const statements = pipeline();
    await Promise.all([statements.query({ ...twice, values: [1] }), statements.query({ ...twice, values: [2] })]);
    await statements.close();
    await eventually(async () => expect(await backends()).toEqual([]), 5000, 50);
    const error = await statements.query({ ...twice, values: [1] }).then(
      () => null,
      (reason: unknown) => reason,
    );
    expect(isDatabaseUnavailable(error)).toBe(true);
  });
});
