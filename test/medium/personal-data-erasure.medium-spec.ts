import { Client } from 'pg';
import type { BrandContext } from '../../src/common/context/request-context';
import { IdentityModule } from '../../src/identity/identity.module';
import { OrdersService } from '../../src/orders/admin/orders.service';
import { PersonalDataModule } from '../../src/personal-data/personal-data.module';
import { PersonalDataService } from '../../src/personal-data/personal-data.service';
import { openMedium, type MediumSuite } from '../support/medium';
import { mediumBrand, mediumProduct, mediumStorefrontOrder, superadminContext } from '../support/medium-fixtures';

let seq = 0;
/** A buyer whose every piece of data is unique to this run; `normalized` is the phone as the service keeps it. */
function buyer() {
  const n = String(400_000 + ++seq).slice(-6);
  return {
    fullName: `Zvyagintseva${n} Varvara${n} Ostapovna${n}`,
    phone: `8 (915) ${n.slice(0, 3)}-${n.slice(3, 5)}-${n.slice(5)}0`,
    normalized: `+7915${n}0`,
    email: `Varvara.${n}@Example.org`,
  };
}
type Buyer = ReturnType<typeof buyer>;

/**
 * Erasure of a buyer's data (contract §17) by the personal-data service on a real database: the
 * rules of what it takes and when. What a dump shows after it, through the payment, carrier and
 * mail flows, and its answers over HTTP: personal-data.e2e-spec.ts.
 */
describe('erasing a buyer', () => {
  let suite: MediumSuite;
  let ctx: BrandContext;
  let sizeId: number;

  const erase = (input: { phone?: string; email?: string; orderId?: number }) =>
    suite.get(PersonalDataService).erase(ctx, input);
  const orders = () => suite.get(OrdersService);
  const recipientOf = (who: Buyer) => ({ fullName: who.fullName, phone: who.phone, email: who.email });
  const storefrontOrder = (who: Buyer) =>
    mediumStorefrontOrder(suite, ctx, {
      partnerOrderId: `PE-${++seq}`,
      article: 'SF-PD-1',
      size: 'M',
      recipient: recipientOf(who),
    });
  const platformOrder = async (who: Buyer) =>
    (await orders().createPlatformOrder(ctx, { recipient: recipientOf(who), items: [{ sizeId, quantity: 2 }] })).order;
  /** Every follow-up job of an order, as text. */
  const outboxText = async (orderId: number) =>
    (
      await suite.dataSource.query<Array<{ row: string }>>(
        `SELECT o::text AS row FROM outbox o WHERE payload->>'orderId' = $1`,
        [String(orderId)],
      )
    )
      .map((r) => r.row)
      .join('\n');

  beforeAll(async () => {
    suite = await openMedium([IdentityModule, PersonalDataModule]);
    ctx = await superadminContext(suite, await mediumBrand(suite));
    const product = await mediumProduct(suite, ctx, {
      name: 'Dress',
      article: 'PD-1',
      storefrontArticle: 'SF-PD-1',
      priceKopeks: 100000,
      sizes: [{ name: 'M', stock: 1000 }],
    });
    sizeId = product.sizes[0].id;
  });
  afterAll(() => suite?.close());

  it('empties again a copy written after the first erasure, without a second mark or event', async () => {
    const who = buyer();
    const created = await storefrontOrder(who);
    await orders().cancel(ctx, created.id, null);
    expect(await erase({ email: who.email })).toEqual({ erased: [created.id], kept: [] });
    const first = (await orders().get(ctx, created.id)).personalDataErasedAt;
    expect(first).toEqual(expect.any(String));
    // A mail job that had read the buyer before the erasure fails after it, quoting the address.
    await suite.dataSource.query(
      `INSERT INTO outbox (kind, payload, last_error, done_at) VALUES ('mail.order_accepted', $1, $2, now())`,
      [{ orderId: created.id }, `550 mailbox unavailable <${who.email}>`],
    );
    expect(await outboxText(created.id)).toContain(who.email);
    // The buyer is no longer found by e-mail: the order is named.
    expect(await erase({ orderId: created.id })).toEqual({ erased: [created.id], kept: [] });
    expect(await outboxText(created.id)).not.toContain(who.email);
    expect((await orders().get(ctx, created.id)).personalDataErasedAt).toBe(first);
    const events = await suite.dataSource.query<Array<{ n: number }>>(
      `SELECT count(*)::int AS n FROM domain_events
        WHERE subject = 'order' AND subject_id = $1 AND type = 'order.personal_data_erased'`,
      [created.id],
    );
    expect(events).toEqual([{ n: 1 }]);
  });

  it('does not wait for an order in progress that another transaction holds', async () => {
    const who = buyer();
    const inProgress = await platformOrder(who);
    const holder = new Client({ connectionString: suite.db.url });
    await holder.connect();
    let timer: NodeJS.Timeout | undefined;
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT 1 FROM orders WHERE id = $1 FOR UPDATE', [inProgress.id]);
      const answered = await Promise.race([
        erase({ phone: who.normalized }),
        new Promise((resolve) => (timer = setTimeout(() => resolve('still waiting after 3 s'), 3_000))),
      ]);
      expect(answered).toEqual({ erased: [], kept: [{ orderId: inProgress.id, status: 'new' }] });
    } finally {
      clearTimeout(timer);
      await holder.query('ROLLBACK');
      await holder.end();
    }
  });
});
