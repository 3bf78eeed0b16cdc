import { Client } from 'pg';
import { isDatabaseUnavailable } from '../src/common/errors/pg-errors';
import { GENERIC_PLANS } from '../src/database/data-source-options';
import { ReadPipeline } from '../src/database/read-pipeline';
import { createTestDatabase, withClient, type TestDatabase } from './support/test-database';

/** The pipelined reads (ReadPipeline) against a real server: answers, failures and lost connections. */
describe('ReadPipeline', () => {
  const app = 'read-pipeline-spec';
  let db: TestDatabase;
  let pipelines: ReadPipeline[] = [];

  const pipeline = (size?: number) => {
    const made = new ReadPipeline({ connectionString: db.url, application_name: app, options: GENERIC_PLANS }, size);
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
    const reads = pipeline();
    const answers = await Promise.all(
      Array.from({ length: 300 }, (_, i) => reads.query<{ n: number }>({ ...twice, values: [i] })),
    );
    expect(answers.map((rows) => rows[0].n)).toEqual(Array.from({ length: 300 }, (_, i) => i * 2));
    expect(await backends()).toHaveLength(2);
  });

  it('fails a statement alone: those before and behind it on the connection answer', async () => {
    const reads = pipeline(1);
    const outcomes = await Promise.allSettled([
      reads.query({ ...twice, values: [1] }),
      reads.query({ name: 'divide', text: 'SELECT 1 / $1::int AS n', values: [0] }),
      reads.query({ ...twice, values: [3] }),
    ]);
    expect(outcomes[0]).toEqual({ status: 'fulfilled', value: [{ n: 2 }] });
    expect(outcomes[1]).toMatchObject({ status: 'rejected', reason: { code: '22012' } });
    expect(outcomes[2]).toEqual({ status: 'fulfilled', value: [{ n: 6 }] });
  });

  it('fails what a lost connection carried as unavailable, and reconnects for the next statement', async () => {
    const reads = pipeline(1);
    await reads.query({ ...twice, values: [1] });
    const [pid] = await backends();
    const carried = reads.query({ name: 'slow', text: 'SELECT pg_sleep($1::float8) AS slept', values: [5] });
    await withClient(db.url, (c: Client) => c.query('SELECT pg_terminate_backend($1)', [pid]));
    const error = await carried.then(
      () => null,
      (reason: unknown) => reason,
    );
    expect(isDatabaseUnavailable(error)).toBe(true);
    expect(await reads.query({ ...twice, values: [4] })).toEqual([{ n: 8 }]);
    expect(await backends()).not.toContain(pid);
  });

  it('ends its connections on close and refuses statements after it as unavailable', async () => {
    const reads = pipeline();
    await Promise.all([reads.query({ ...twice, values: [1] }), reads.query({ ...twice, values: [2] })]);
    await reads.close();
    expect(await backends()).toEqual([]);
    const error = await reads.query({ ...twice, values: [1] }).then(
      () => null,
      (reason: unknown) => reason,
    );
    expect(isDatabaseUnavailable(error)).toBe(true);
  });
});
