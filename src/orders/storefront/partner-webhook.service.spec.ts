import type { KeyChecks } from '../../access-keys/key-checks';
import type { CatalogMatcher } from '../../catalog/catalog-matcher';
import type { BrandContext } from '../../common/context/request-context';
import { AppError } from '../../common/errors/app-error';
import type { PartnerOrderDto } from '../dto/partner-order.dto';
import type { OrderWriter } from '../order-writer';
import { orderedAt, PartnerWebhookService } from './partner-webhook.service';
import { RecentOrders } from './recent-orders';

const ctx = { brandId: 7, principal: { kind: 'integration_key', id: 1 } } as unknown as BrandContext;
const body = {
  partnerOrderId: 'P-1',
  recipient: { fullName: 'Ivanov Ivan', phone: '+7 912 000-00-00' },
  items: [{ article: 'SF-1', size: 'M', quantity: 1 }],
} as PartnerOrderDto;
const created = { id: 1, orderNumber: '1001', hash: 'h', totalKopeks: 100 };

/** The write's answers in turn, and what the matcher says of the lines when the write finds one unmatched. */
function serviceWith(outcomes: unknown[], problems: string[], earlier: unknown = null) {
  const writer = {
    acceptStorefrontOrder: jest.fn().mockImplementation(async () => outcomes.shift()),
    findByPartnerId: jest.fn().mockResolvedValue(earlier),
  };
  const matcher = { byStorefrontArticle: jest.fn().mockResolvedValue({ lines: [], problems }) };
  const service = new PartnerWebhookService(
    matcher as unknown as CatalogMatcher,
    writer as unknown as OrderWriter,
    new RecentOrders(),
    // No pending key in these contexts: the key was checked by the guards.
    { pendingOf: () => undefined } as unknown as KeyChecks,
  );
  return { service, writer, matcher };
}

describe('PartnerWebhookService when the write finds a line unmatched', () => {
  it('answers 422 with the matcher’s problems when no earlier order has the number', async () => {
    const { service, writer } = serviceWith(['unmatched'], ['items.0: storefront article "SF-1" matches no product']);
    const error = await service.accept(ctx, body).catch((e: AppError) => e);
    expect(error).toBeInstanceOf(AppError);
    expect([(error as AppError).status, (error as AppError).details]).toEqual([
      422,
      ['items.0: storefront article "SF-1" matches no product'],
    ]);
    expect(writer.acceptStorefrontOrder).toHaveBeenCalledTimes(1);
  });

  it('answers 200 with the earlier order when a twin committed meanwhile: the repeat wins over unmatched lines', async () => {
    const { service } = serviceWith(['unmatched'], ['items.0: no such size'], { ...created, fingerprint: null });
    expect(await service.accept(ctx, body)).toEqual({
      status: 200,
      body: { ok: true, duplicate: true, order: created },
    });
  });

  it('writes again when the catalog changed between the write and the matcher’s look', async () => {
    const { service, writer } = serviceWith(['unmatched', { created }], []);
    expect(await service.accept(ctx, body)).toEqual({
      status: 201,
      body: { ok: true, duplicate: false, order: created },
    });
    expect(writer.acceptStorefrontOrder).toHaveBeenCalledTimes(2);
  });

  it('gives up after three writes rather than loop while the catalog keeps changing', async () => {
    const { service, writer } = serviceWith(['unmatched', 'unmatched', 'unmatched', { created }], []);
    await expect(service.accept(ctx, body)).rejects.toThrow('the catalog kept changing');
    expect(writer.acceptStorefrontOrder).toHaveBeenCalledTimes(3);
  });
});

describe('PartnerWebhookService on a retry this instance has answered before', () => {
  it('answers from memory: no matching, no write', async () => {
    const { service, writer, matcher } = serviceWith([{ created }], []);
    expect((await service.accept(ctx, body)).status).toBe(201);
    expect(await service.accept(ctx, body)).toEqual({
      status: 200,
      body: { ok: true, duplicate: true, order: created },
    });
    expect(writer.acceptStorefrontOrder).toHaveBeenCalledTimes(1);
    expect(writer.findByPartnerId).not.toHaveBeenCalled();
    expect(matcher.byStorefrontArticle).not.toHaveBeenCalled();
  });

  it('still flags a retry whose body differs', async () => {
    const { service } = serviceWith([{ created }], []);
    await service.accept(ctx, body);
    const changed = { ...body, items: [{ article: 'SF-1', size: 'M', quantity: 2 }] } as PartnerOrderDto;
    expect((await service.accept(ctx, changed)).body.bodyMismatch).toBe(true);
  });
});

describe('PartnerWebhookService on a new order', () => {
  it('writes a paid storefront order of the key’s brand, its number trimmed, its lines as sent', async () => {
    const { service, writer } = serviceWith([{ created }], []);
    await service.accept(ctx, {
      ...body,
      partnerOrderId: ' P-1 ',
      orderDate: '2026-01-02T03:04:05Z',
    });
    expect(writer.acceptStorefrontOrder).toHaveBeenCalledWith(
      expect.objectContaining({
        brandId: 7,
        source: 'storefront',
        partnerOrderId: 'P-1',
        status: 'paid',
        paymentStatus: 'paid',
        orderedAt: new Date('2026-01-02T03:04:05Z'),
        lines: [{ storefrontArticle: 'SF-1', size: 'M', quantity: 1, priceKopeks: undefined }],
      }),
      { kind: 'integration_key', id: 1 },
      // No e-mail in the recipient: no acceptance mail.
      { acceptanceMail: false },
    );
  });

  it('takes the arrival time for an orderDate that is no RFC 3339 date-time', () => {
    const arrived = new Date('2026-03-04T05:06:07Z');
    for (const orderDate of ['yesterday', '2026-13-45', '2026-01-02', '2026-02-30T10:00:00Z', '2026-01-02T10:00:00', 7])
      expect(orderedAt(orderDate, arrived)).toBe(arrived);
    expect(orderedAt(undefined, arrived)).toBe(arrived);
    expect(orderedAt(' 2026-01-02T10:00:00+03:00 ', arrived)).toEqual(new Date('2026-01-02T07:00:00Z'));
    expect(orderedAt('2026-01-02t10:00:00.5z', arrived)).toEqual(new Date('2026-01-02T10:00:00.500Z'));
  });

  it('answers 200 with the twin when a concurrent request with the number committed first', async () => {
    const { service } = serviceWith([null], [], { ...created, fingerprint: null });
    expect(await service.accept(ctx, body)).toEqual({
      status: 200,
      body: { ok: true, duplicate: true, order: created },
    });
  });

  it('flags an earlier order whose body differed from this one', async () => {
    const { service } = serviceWith([{ earlier: { ...created, fingerprint: 'another body' } }], []);
    expect((await service.accept(ctx, body)).body).toEqual({
      ok: true,
      duplicate: true,
      order: created,
      bodyMismatch: true,
    });
  });
});
