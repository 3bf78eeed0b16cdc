import type { BrandContext } from '../../src/common/context/request-context';
import { IdentityModule } from '../../src/identity/identity.module';
import { OrdersService } from '../../src/orders/admin/orders.service';
import { PersonalDataModule } from '../../src/personal-data/personal-data.module';
import { PersonalDataService } from '../../src/personal-data/personal-data.service';
import { RetentionSweep } from '../../src/personal-data/retention-sweep';
import { eventually } from '../support/eventually';
import { openMedium, type MediumSuite } from '../support/medium';
import { mediumBrand, mediumProduct, mediumStorefrontOrder, superadminContext } from '../support/medium-fixtures';

let seq = 0;
/** A buyer of their own, so what is left of them can be told apart. */
function buyer() {
  const n = String(300_000 + ++seq).slice(-6);
  return { fullName: `Kuznetsova${n} Alla${n} Petrovna${n}`, phone: `+7917${n}2`, email: `alla.${n}@example.net` };
}

/**
 * The retention of buyers' data (contract §17): each instance sweeps every PERSONAL_DATA_CHECK_SECONDS
 * (the shortest allowed here), anonymising the final orders past their brand's retention. Two instances
 * on one database sweep together and take each order once, with one event and one journal entry.
 */
describe('the personal-data retention sweep', () => {
  let first: MediumSuite;
  let second: MediumSuite;
  const env = { PERSONAL_DATA_CHECK_SECONDS: '1' };

  /** A brand with a size on sale, and the superadministrator's context in it. */
  async function brandOnSale(): Promise<{ ctx: BrandContext; sizeId: number }> {
    const ctx = await superadminContext(first, await mediumBrand(first));
    const product = await mediumProduct(first, ctx, {
      name: 'Tee',
      article: 'T',
      storefrontArticle: 'SF-T',
      priceKopeks: 10000,
      sizes: [{ name: 'S', stock: 500 }],
    });
    return { ctx, sizeId: product.sizes[0].id };
  }
  const storefrontOrder = (on: MediumSuite, ctx: BrandContext, who: ReturnType<typeof buyer>) =>
    mediumStorefrontOrder(on, ctx, {
      partnerOrderId: `RT-${++seq}`,
      article: 'SF-T',
      size: 'S',
      recipient: { fullName: who.fullName, phone: who.phone, email: who.email },
      comment: `Call before noon ${seq}`,
    });
  const orderOf = (ctx: BrandContext, id: number) => first.get(OrdersService).get(ctx, id);
  const erasures = async (brandId: number) =>
    (
      await first.dataSource.query<Array<{ actor_kind: string | null; details: { by: string; erased: number[] } }>>(
        `SELECT actor_kind, details FROM security_journal WHERE type = 'personal_data_erased' AND brand_id = $1
          ORDER BY id`,
        [brandId],
      )
    ).map((row) => ({ actor: row.actor_kind, ...row.details }));

  beforeAll(async () => {
    first = await openMedium([IdentityModule, PersonalDataModule], { env });
    second = await openMedium([IdentityModule, PersonalDataModule], { env, db: first.db });
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  it('anonymises only final orders past the retention, journaled by retention with no actor', async () => {
    const { ctx, sizeId } = await brandOnSale();
    const who = buyer();
    const done = await storefrontOrder(first, ctx, who);
    await first.get(OrdersService).cancel(ctx, done.id, null);
    const inProgress = await first.get(OrdersService).createPlatformOrder(ctx, {
      recipient: { fullName: who.fullName, phone: who.phone, email: who.email },
      items: [{ sizeId, quantity: 1 }],
    });
    const data = first.get(PersonalDataService);
    const sweep = first.get(RetentionSweep);

    await data.setRetention(ctx, 30);
    await sweep.runOnce();
    expect((await orderOf(ctx, done.id)).personalDataErasedAt).toBeNull();

    await data.setRetention(ctx, 0);
    // This sweep, or one of the instances' timers just before it, anonymises it.
    await sweep.runOnce();
    expect((await orderOf(ctx, done.id)).recipient).toMatchObject({ fullName: '', phone: '', email: null });
    expect((await orderOf(ctx, inProgress.order.id)).recipient.fullName).toBe(who.fullName);
    expect(await erasures(ctx.brandId)).toEqual([{ actor: null, by: 'retention', erased: [done.id], kept: [] }]);
    expect(await sweep.runOnce()).toBe(0);
    await data.setRetention(ctx, null);
  });

  it('two instances sweeping together anonymise each due order once, with one event and one journal entry', async () => {
    const { ctx, sizeId } = await brandOnSale();
    const orderIds: number[] = [];
    for (let i = 0; i < 24; i++) {
      const on = [first, second][i % 2];
      const created = await storefrontOrder(on, ctx, buyer());
      await on.get(OrdersService).cancel(ctx, created.id, null);
      orderIds.push(created.id);
    }
    const platformBuyer = buyer();
    const platform = await second.get(OrdersService).createPlatformOrder(ctx, {
      recipient: { fullName: platformBuyer.fullName, phone: platformBuyer.phone, email: platformBuyer.email },
      items: [{ sizeId, quantity: 1 }],
      delivery: { city: 'Tver', pvzCode: 'TV1' },
    });
    await second.get(OrdersService).cancel(ctx, platform.order.id, null);
    orderIds.push(platform.order.id);

    await first.get(PersonalDataService).setRetention(ctx, 0);
    // Both at once, beside the timers of both.
    await Promise.all([first.get(RetentionSweep).runOnce(), second.get(RetentionSweep).runOnce()]);
    await eventually(async () => {
      const left = await first.dataSource.query<Array<{ n: number }>>(
        'SELECT count(*)::int AS n FROM orders WHERE brand_id = $1 AND personal_data_erased_at IS NULL',
        [ctx.brandId],
      );
      expect(left[0].n).toBe(0);
    }, 10_000);
    // One more round of every timer: nothing is anonymised, marked or journaled twice.
    await new Promise((resolve) => setTimeout(resolve, 1_200));

    const events = await first.dataSource.query<Array<{ subject_id: number; n: number }>>(
      `SELECT subject_id, count(*)::int AS n FROM domain_events
        WHERE brand_id = $1 AND type = 'order.personal_data_erased' GROUP BY 1 ORDER BY 1`,
      [ctx.brandId],
    );
    expect(events).toEqual([...orderIds].sort((x, y) => x - y).map((id) => ({ subject_id: id, n: 1 })));
    const journaled = (await erasures(ctx.brandId)).flatMap((entry) => {
      expect(entry).toMatchObject({ actor: null, by: 'retention', kept: [] });
      return entry.erased;
    });
    expect(journaled.sort((x, y) => x - y)).toEqual([...orderIds].sort((x, y) => x - y));
    for (const id of orderIds) expect((await orderOf(ctx, id)).recipient.fullName).toBe('');
  });
});
