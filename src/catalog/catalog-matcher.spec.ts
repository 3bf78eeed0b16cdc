import type { BrandOwnership } from '../security-journal/brand-ownership';
import { CatalogMatcher, storefrontLineArrays, storefrontLineMatch } from './catalog-matcher';
import type { CatalogRepository, StorefrontLineRow } from './catalog.repository';

const row = (line: number, over: Partial<StorefrontLineRow> = {}): StorefrontLineRow => ({
  line,
  product_id: 3,
  size_id: 30 + line,
  price: '1200',
  stock: 5,
  ...over,
});

describe('storefront lines in the matcher', () => {
  it('sends the lines as the statements take them: size keys trimmed and lower-cased, absent prices null', () => {
    expect(
      storefrontLineArrays([
        { article: 'SF-A', size: ' XL ', quantity: 2 },
        { article: ' sf-b', size: 'One Size', quantity: 1, priceKopeks: 990 },
      ]),
    ).toEqual({
      articles: ['SF-A', ' sf-b'],
      sizeKeys: ['xl', 'one size'],
      quantities: [2, 1],
      prices: [null, 990],
    });
  });

  it('gives the 422’s texts: no product with the storefront article, or no such size of it', () => {
    const line = { article: 'SF-A', size: 'XXL' };
    expect(storefrontLineMatch(4, line, undefined)).toEqual({
      matched: false,
      problem: 'items.4: storefront article "SF-A" matches no product',
    });
    expect(storefrontLineMatch(4, line, row(5, { product_id: null, size_id: null, price: null, stock: null }))).toEqual(
      { matched: false, problem: 'items.4: storefront article "SF-A" matches no product' },
    );
    expect(storefrontLineMatch(0, line, row(1, { size_id: null, price: '1000', stock: null }))).toEqual({
      matched: false,
      problem: 'items.0: product "SF-A" has no size "XXL"',
    });
    expect(storefrontLineMatch(0, line, row(1, { price: '9007199254740991', stock: -3 }))).toEqual({
      matched: true,
      productId: 3,
      sizeId: 31,
      priceKopeks: 9007199254740991,
      stock: -3,
    });
  });

  it('byStorefrontArticle: one lookup, each line by its number, problems in the order of the lines', async () => {
    const lookupStorefrontLines = jest
      .fn()
      .mockResolvedValue([row(3), row(2, { size_id: null }), row(1, { product_id: null, size_id: null })]);
    const matcher = new CatalogMatcher({ lookupStorefrontLines } as unknown as CatalogRepository, {} as BrandOwnership);
    const resolution = await matcher.byStorefrontArticle(7, [
      { article: 'NOPE', size: 'M', quantity: 1 },
      { article: 'SF-A', size: 'XXL', quantity: 1 },
      { article: 'SF-A', size: 'M', quantity: 2, priceKopeks: 1200 },
    ]);
    expect(lookupStorefrontLines).toHaveBeenCalledTimes(1);
    expect(lookupStorefrontLines).toHaveBeenCalledWith(7, {
      articles: ['NOPE', 'SF-A', 'SF-A'],
      sizeKeys: ['m', 'xxl', 'm'],
      quantities: [1, 1, 2],
      prices: [null, null, 1200],
    });
    expect(resolution).toEqual({
      lines: [
        { matched: false, problem: 'items.0: storefront article "NOPE" matches no product' },
        { matched: false, problem: 'items.1: product "SF-A" has no size "XXL"' },
        { matched: true, productId: 3, sizeId: 33, priceKopeks: 1200, stock: 5 },
      ],
      problems: ['items.0: storefront article "NOPE" matches no product', 'items.1: product "SF-A" has no size "XXL"'],
    });
  });
});
