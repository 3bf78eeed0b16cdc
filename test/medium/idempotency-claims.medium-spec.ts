import { IdempotencyModule } from '../../src/idempotency/idempotency.module';
import { IdempotencyRepository } from '../../src/idempotency/idempotency.repository';
import { openMedium, type MediumSuite } from '../support/medium';

/** The idempotency_keys table's claims (contract §11), on the repository the interceptor uses. */
describe('idempotency claims', () => {
  let s: MediumSuite;

  beforeAll(async () => {
    s = await openMedium([IdempotencyModule]);
  });
  afterAll(() => s?.close());

  it('lets no change commit under a claim that was taken over', async () => {
    const repository = s.get(IdempotencyRepository);
    const key = 'taken-over';
    const hash = Buffer.from('request');
    const first = await repository.claim('integration_key:0', key, hash, 120);
    // The first run's instance seems gone: its claim is older than the abandon bound.
    await s.dataSource.query(`UPDATE idempotency_keys SET locked_at = now() - interval '10 minutes' WHERE key = $1`, [
      key,
    ]);
    const second = await repository.claim('integration_key:0', key, hash, 120);
    if (first.kind !== 'claimed' || second.kind !== 'claimed') throw new Error('both runs should have claimed');
    const lateWrite = s.dataSource.transaction((tx) =>
      repository.record(tx, 'integration_key:0', key, first.claimId, Buffer.from('late')),
    );
    await expect(lateWrite).rejects.toThrow('A request with this idempotency key is in progress');
    await s.dataSource.transaction((tx) =>
      repository.record(tx, 'integration_key:0', key, second.claimId, Buffer.from('own')),
    );
    const rows: Array<{ effects: Buffer[] }> = await s.dataSource.query(
      `SELECT effects FROM idempotency_keys WHERE key = $1`,
      [key],
    );
    expect(rows[0].effects).toEqual([Buffer.from('own')]);
  });
});
