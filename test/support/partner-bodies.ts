import fc from 'fast-check';
import { createProduct, type Fixtures } from './fixtures';

/*
 * Storefront webhook bodies for the property suites (the webhook's and its preflight's), over the
 * catalog seedPartnerCatalog() makes: well-formed orders that match, miss or repeat a number, and
 * bodies of any shape at all.
 */

/** The catalog the generated bodies name: sizes with and without their own price, a product without sizes. */
export async function seedPartnerCatalog(fx: Fixtures, brandId: number): Promise<void> {
  await createProduct(fx, brandId, {
    article: 'A-1',
    storefrontArticle: 'SF-A',
    priceKopeks: 1000,
    sizes: [
      { name: 'S', stock: 5 },
      { name: 'M', priceKopeks: 1200 },
    ],
  });
  await createProduct(fx, brandId, {
    article: 'B-1',
    storefrontArticle: 'SF-B',
    priceKopeks: 700,
    sizes: [{ name: 'One', stock: 1000 }],
  });
  await createProduct(fx, brandId, { article: 'C-1', storefrontArticle: 'SF-C', priceKopeks: 300 });
}

export const junk = fc.oneof(
  fc.constant(undefined),
  fc.constant(null),
  fc.integer(),
  fc.double(),
  fc.string(),
  fc.boolean(),
  fc.array(fc.integer(), { maxLength: 2 }),
  fc.object({ maxDepth: 1 }),
);

const item = fc.record(
  {
    article: fc.oneof(fc.constantFrom('SF-A', 'SF-B', 'SF-C', 'A-1', 'NOPE', ''), junk),
    size: fc.oneof(fc.constantFrom('S', 's', 'M', ' m ', 'One', 'ONE', 'XL', ''), junk),
    quantity: fc.oneof(fc.integer({ min: -2, max: 4 }), fc.constantFrom(1.5, '2', 0, 1e9), junk),
    priceKopeks: fc.oneof(fc.constant(undefined), fc.integer({ min: -5, max: 500000 }), junk),
  },
  { requiredKeys: [] },
);

/** A body of any shape: most are refused with 400, some pass. */
export const arbitraryBody = fc.record(
  {
    partnerOrderId: fc.oneof(fc.stringMatching(/^P-[0-9]{1,3}$/), fc.constant('   '), junk),
    recipient: fc.oneof(
      fc.record(
        {
          fullName: fc.oneof(fc.constantFrom('Ivanov Ivan Ivanovich', 'Solo', '  '), junk),
          phone: fc.oneof(fc.constantFrom('+7 912 000-00-00', '8 (900) 1', 'call me'), junk),
          email: fc.oneof(fc.constant(undefined), fc.constantFrom('a@b.example', 'nope'), junk),
        },
        { requiredKeys: [] },
      ),
      junk,
    ),
    items: fc.oneof(fc.array(item, { maxLength: 4 }), junk),
    delivery: fc.oneof(
      fc.constant(undefined),
      fc.record(
        {
          city: fc.oneof(fc.string(), junk),
          deliveryCostKopeks: fc.oneof(fc.integer({ min: -10, max: 100000 }), junk),
        },
        { requiredKeys: [] },
      ),
      junk,
    ),
    orderDate: fc.oneof(
      fc.constant(undefined),
      fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
      junk,
    ),
    comment: fc.oneof(fc.constant(undefined), fc.string(), junk),
  },
  { requiredKeys: [] },
);

/** Well-formed orders: some matching, some not, some repeating a number, some with their own prices. */
export const wellFormedBody = fc.record(
  {
    partnerOrderId: fc.stringMatching(/^W-[0-9]{1,2}$/),
    recipient: fc.record({
      fullName: fc.constantFrom('Ivanov Ivan', 'Petrova Anna Sergeevna'),
      phone: fc.constant('+79120000000'),
    }),
    items: fc.array(
      fc.record(
        {
          article: fc.constantFrom('SF-A', 'SF-B', 'SF-B', 'SF-C', 'NOPE', 'sf-a', 'A-1'),
          size: fc.constantFrom('s', 'M', ' m ', 'one', 'One', 'XL'),
          quantity: fc.integer({ min: 1, max: 3 }),
          priceKopeks: fc.integer({ min: 0, max: 5000 }),
        },
        { requiredKeys: ['article', 'size', 'quantity'] },
      ),
      { minLength: 1, maxLength: 3 },
    ),
    delivery: fc.record({ deliveryCostKopeks: fc.integer({ min: 0, max: 1000 }) }),
  },
  { requiredKeys: ['partnerOrderId', 'recipient', 'items'] },
);

/** Well-formed orders mixed with anything at all. */
export const anyBody = fc.oneof({ arbitrary: wellFormedBody, weight: 2 }, { arbitrary: arbitraryBody, weight: 3 });
