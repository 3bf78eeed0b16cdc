import type { DataSource } from 'typeorm';
import type { PreparedStatements } from '../database/prepared';
import type { Transactions } from '../database/transactions';
import type { BrandOwnership } from '../security-journal/brand-ownership';
import type { SecurityJournal } from '../security-journal/security-journal.service';
import { fingerprintOf, generateIntegrationKey } from './integration-key-format';
import { IntegrationKeysRepository } from './integration-keys.repository';
import { IntegrationKeysService } from './integration-keys.service';

/** The prepared-statement runner, where the key lookup goes. */
function serviceWith(rows: unknown[]) {
  const query = jest.fn().mockResolvedValue(rows);
  const statements = { read: query } as unknown as PreparedStatements;
  return {
    service: new IntegrationKeysService(
      new IntegrationKeysRepository({} as DataSource, statements),
      {} as Transactions,
      {} as SecurityJournal,
      {} as BrandOwnership,
    ),
    query,
  };
}

describe('IntegrationKeysService.verify', () => {
  it('refuses a key with a bad checksum without touching the database', async () => {
    const { service, query } = serviceWith([]);
    const key = generateIntegrationKey();
    const typo = key.slice(0, 10) + (key[10] === 'f' ? 'e' : 'f') + key.slice(11);
    expect(await service.verify(typo, '127.0.0.1')).toBeNull();
    expect(await service.verify('csh_at_short', '127.0.0.1')).toBeNull();
    expect(query).not.toHaveBeenCalled();
  });

  it('costs an unknown well-formed key the same single lookup by fingerprint as a known one', async () => {
    const unknown = serviceWith([]);
    const key = generateIntegrationKey();
    expect(await unknown.service.verify(key, '127.0.0.1')).toBeNull();
    expect(unknown.query).toHaveBeenCalledTimes(1);

    const known = serviceWith([
      {
        id: 3,
        brand_id: 9,
        name: 'n',
        permissions: ['orders.read'],
        full_access: false,
        fingerprint: fingerprintOf(key),
        last_used_at: new Date(),
      },
    ]);
    const principal = await known.service.verify(key, '127.0.0.1');
    expect(known.query).toHaveBeenCalledTimes(1);
    expect(unknown.query.mock.calls[0][0].text).toBe(known.query.mock.calls[0][0].text);
    expect(unknown.query.mock.calls[0][1][0]).toEqual(fingerprintOf(key));
    expect(principal).toMatchObject({ kind: 'integration_key', id: 3, boundBrandId: 9 });
    expect([...principal!.permissionsIn(9)]).toEqual(['orders.read']);
    expect(principal!.permissionsIn(10).size).toBe(0);
  });

  it('refuses a row whose fingerprint differs (constant-time comparison after the lookup)', async () => {
    const key = generateIntegrationKey();
    const { service } = serviceWith([
      {
        id: 3,
        brand_id: 9,
        name: 'n',
        permissions: [],
        full_access: true,
        fingerprint: fingerprintOf(generateIntegrationKey()),
        last_used_at: new Date(),
      },
    ]);
    expect(await service.verify(key, '127.0.0.1')).toBeNull();
  });

  it('gives a full-access key every brand permission but settings.manage', async () => {
    const key = generateIntegrationKey();
    const { service } = serviceWith([
      {
        id: 3,
        brand_id: 9,
        name: 'n',
        permissions: [],
        full_access: true,
        fingerprint: fingerprintOf(key),
        last_used_at: new Date(),
      },
    ]);
    const permissions = (await service.verify(key, '127.0.0.1'))!.permissionsIn(9);
    expect(permissions.has('orders.create_partner')).toBe(true);
    expect(permissions.has('returns.write')).toBe(true);
    expect(permissions.has('settings.manage')).toBe(false);
  });
});
