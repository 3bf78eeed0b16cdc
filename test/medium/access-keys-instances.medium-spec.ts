import { IntegrationKeysService } from '../../src/access-keys/integration-keys.service';
import { KeyChecks } from '../../src/access-keys/key-checks';
import { contextOf } from '../../src/common/context/context-of';
import type { BrandContext } from '../../src/common/context/request-context';
import { AppError } from '../../src/common/errors/app-error';
import { ErrorText } from '../../src/common/errors/error-texts';
import { IdentityModule } from '../../src/identity/identity.module';
import { OrdersService } from '../../src/orders/admin/orders.service';
import { OrdersModule } from '../../src/orders/orders.module';
import { openMedium, type MediumSuite } from '../support/medium';
import { mediumBrand, mediumRequest, superadminContext } from '../support/medium-fixtures';
import { createTestDatabase, type TestDatabase } from '../support/test-database';

const ENV = { OUTBOX_WORKER: 'false', WEBHOOK_WORKER: 'false' };

/**
 * `GET /orders/admin/all` as an instance's guard chain runs it: a key this instance has not seen is
 * checked by the guards, one it knows is left to the order list's own statement.
 */
async function listOrders(instance: MediumSuite, key: string) {
  const request = mediumRequest();
  const ctx = contextOf(request);
  const keys = instance.get(KeyChecks);
  ctx.principal = await keys.defer(key, request, 'orders.read');
  ctx.brandId = ctx.principal.boundBrandId;
  const checkedBy = keys.pendingOf(ctx) ? 'statement' : 'guards';
  const outcome = await instance
    .get(OrdersService)
    .list(ctx as BrandContext, { limit: 1, offset: 0 })
    .then(
      () => 'listed',
      (error: unknown) => error,
    );
  return { checkedBy, outcome };
}

/** integration-keys.e2e-spec holds the 401 and its text on the API. */
describe('integration keys across instances on one database', () => {
  let db: TestDatabase;
  let instances: MediumSuite[];

  beforeAll(async () => {
    db = await createTestDatabase();
    instances = await Promise.all([1, 2].map(() => openMedium([IdentityModule, OrdersModule], { db, env: ENV })));
  });
  afterAll(async () => {
    await Promise.all((instances ?? []).map((instance) => instance.close()));
    await db?.drop();
  });

  it('a revoke acts at once in every instance, also where the key is known and its statement checks it', async () => {
    const [first, second] = instances;
    const ctx = await superadminContext(first, await mediumBrand(first));
    const { id, key } = await first
      .get(IntegrationKeysService)
      .issue(ctx, { name: 'Both', permissions: ['orders.read'] });
    for (const instance of [second, first]) {
      expect(await listOrders(instance, key)).toEqual({ checkedBy: 'guards', outcome: 'listed' });
    }
    await first.get(IntegrationKeysService).revoke(ctx, id);
    for (const instance of [second, first]) {
      const { checkedBy, outcome } = await listOrders(instance, key);
      expect(checkedBy).toBe('statement');
      expect(outcome).toBeInstanceOf(AppError);
      expect(outcome).toMatchObject({ status: 401, message: ErrorText.unauthorized });
      // The guards' own check refuses it too.
      const checked = await instance
        .get(KeyChecks)
        .check(key, mediumRequest())
        .catch((error: unknown) => error);
      expect(checked).toMatchObject({ status: 401, message: ErrorText.unauthorized });
    }
  });
});
