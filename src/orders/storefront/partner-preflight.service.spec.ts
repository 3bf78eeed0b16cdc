import type { CatalogMatcher, StorefrontLineMatch } from '../../catalog/catalog-matcher';
import type { BrandContext } from '../../common/context/request-context';
import type { PartnerOrderDto } from '../dto/partner-order.dto';
import type { OrderWriter } from '../order-writer';
import { PartnerPreflightService, stockStaysInRange } from './partner-preflight.service';

const ctx = { brandId: 7, principal: { kind: 'integration_key', id: 1 } } as unknown as BrandContext;
const earlier = { id: 1, orderNumber: '1001', hash: 'h', totalKopeks: 100, fingerprint: null };
const unmatched: StorefrontLineMatch = {
  matched: false,
  problem: 'items.1: storefront article "NOPE" matches no product',
};
const shirt: StorefrontLineMatch = { matched: true, productId: 3, sizeId: 30, priceKopeks: 1200, stock: 4 };

function serviceWith(lines: StorefrontLineMatch[], found: unknown = null) {
  const writer = { findByPartnerId: jest.fn().mockResolvedValue(found) };
  const matcher = {
    byStorefrontArticle: jest.fn().mockResolvedValue({
      lines,
      problems: lines.flatMap((l) => (l.matched ? [] : [l.problem])),
    }),
  };
  const service = new PartnerPreflightService(matcher as unknown as CatalogMatcher, writer as unknown as OrderWriter);
  return { service, writer, matcher };
}

const body = (items: PartnerOrderDto['items'], delivery?: number) =>
  ({
    partnerOrderId: '  P-1 ',
    recipient: { fullName: 'Ivanov Ivan', phone: '+7 912 000-00-00' },
    items,
    ...(delivery === undefined ? {} : { delivery: { deliveryCostKopeks: delivery } }),
  }) as PartnerOrderDto;

describe('PartnerPreflightService', () => {
  it('asks the webhook’s repeat check (trimmed number) and matcher, and prices what matched', async () => {
    const { service, writer, matcher } = serviceWith([shirt, unmatched]);
    const items = [
      { article: 'SF-A', size: 'M', quantity: 3 },
      { article: 'NOPE', size: 'M', quantity: 1 },
    ];
    expect(await service.check(ctx, body(items, 500))).toEqual({
      ok: false,
      duplicate: false,
      lines: [
        {
          article: 'SF-A',
          size: 'M',
          quantity: 3,
          matched: true,
          productId: 3,
          sizeId: 30,
          priceKopeks: 1200,
          lineTotalKopeks: 3600,
          stock: 4,
          problem: null,
        },
        {
          article: 'NOPE',
          size: 'M',
          quantity: 1,
          matched: false,
          productId: null,
          sizeId: null,
          priceKopeks: null,
          lineTotalKopeks: null,
          stock: null,
          problem: unmatched.problem,
        },
      ],
      itemsTotalKopeks: 3600,
      deliveryCostKopeks: 500,
      totalKopeks: 4100,
      problems: [unmatched.problem],
    });
    expect(writer.findByPartnerId).toHaveBeenCalledWith(7, 'P-1');
    expect(matcher.byStorefrontArticle).toHaveBeenCalledWith(7, items);
  });

  it('a known number is a duplicate and ok even with unmatched lines (the webhook answers 200 first)', async () => {
    const { service } = serviceWith([unmatched], earlier);
    const answer = await service.check(ctx, body([{ article: 'NOPE', size: 'M', quantity: 1 }]));
    expect(answer).toMatchObject({ ok: true, duplicate: true, problems: [unmatched.problem], totalKopeks: 0 });
  });

  it('every line matched: ok, with no delivery cost when none is given', async () => {
    const { service } = serviceWith([shirt]);
    const answer = await service.check(ctx, body([{ article: 'SF-A', size: 'M', quantity: 1 }]));
    expect(answer).toMatchObject({
      ok: true,
      duplicate: false,
      problems: [],
      deliveryCostKopeks: 0,
      totalKopeks: 1200,
    });
  });

  it('not ok when a size’s stock would fall below PostgreSQL’s integer, summed over its lines', () => {
    const deep: StorefrontLineMatch = { ...shirt, stock: -2147483640 };
    expect(stockStaysInRange([deep, deep], [{ quantity: 4 }, { quantity: 4 }])).toBe(true);
    expect(stockStaysInRange([deep, deep], [{ quantity: 4 }, { quantity: 5 }])).toBe(false);
    expect(stockStaysInRange([deep, { ...deep, sizeId: 31 }], [{ quantity: 8 }, { quantity: 8 }])).toBe(true);
    expect(stockStaysInRange([unmatched], [{ quantity: 100000 }])).toBe(true);
  });
});
