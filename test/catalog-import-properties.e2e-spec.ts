import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import fc from 'fast-check';
import request from 'supertest';
import { guardFormula } from '../src/catalog/csv-formula-cells';
import { MAX_PRICE_KOPEKS } from '../src/common/validation/money';
import { issueKey, type IssuedKey } from './support/fixtures';
import { closeSuite, openSuite, type Suite } from './support/suite';

const COLUMNS = ['article', 'name', 'storefrontArticle', 'priceKopeks', 'size', 'sizePriceKopeks'];

interface GeneratedProduct {
  article: string;
  name: string;
  storefrontArticle: string | null;
  priceKopeks: number;
  sizes: Array<{ name: string; priceKopeks: number | null }>;
}

/** Text as a cell may hold it after the import trims it: no whitespace at either end, never empty. */
const text = (chars: string[], maxLength: number) =>
  fc
    .array(fc.constantFrom(...chars), { minLength: 1, maxLength })
    .map((parts) => parts.join(''))
    .filter((value) => value.length > 0 && value.trim() === value);
const ARTICLE_CHARS = ['A', 'b', 'Z', '0', '9', '-', '_', ',', ';', '"', ' ', 'Я', 'é', '\u{1F600}'];
const NAME_CHARS = [...ARTICLE_CHARS, '\n', '\r\n', "'", '=', '@', '+'];
const price = fc.integer({ min: 0, max: MAX_PRICE_KOPEKS });

/** A catalog: articles unique, storefront articles unique where given, size names unique per product regardless of case. */
const catalog = fc
  .uniqueArray(
    fc.record({
      article: text(ARTICLE_CHARS, 12),
      name: text(NAME_CHARS, 20),
      storefrontArticle: fc.option(text(ARTICLE_CHARS, 10), { nil: null }),
      priceKopeks: price,
      sizes: fc.uniqueArray(fc.record({ name: text(ARTICLE_CHARS, 6), priceKopeks: fc.option(price, { nil: null }) }), {
        maxLength: 4,
        selector: (size) => size.name.toLowerCase(),
      }),
    }),
    { maxLength: 12, selector: (product) => product.article },
  )
  .map((products) => {
    const taken = new Set<string>();
    return products.map((product): GeneratedProduct => {
      const storefrontArticle =
        product.storefrontArticle !== null && !taken.has(product.storefrontArticle) ? product.storefrontArticle : null;
      if (storefrontArticle !== null) taken.add(storefrontArticle);
      return { ...product, storefrontArticle };
    });
  });

/**
 * The export's rows of a catalog: in article order (bytes), a product's sizes in the order they were added, a
 * formula-like text cell behind its `'` (contract §18).
 */
function rowsOf(products: GeneratedProduct[]): string[][] {
  const byBytes = (a: GeneratedProduct, b: GeneratedProduct) =>
    Buffer.compare(Buffer.from(a.article), Buffer.from(b.article));
  return [...products].sort(byBytes).flatMap((p) => {
    const own = [
      guardFormula(p.article),
      guardFormula(p.name),
      guardFormula(p.storefrontArticle ?? ''),
      String(p.priceKopeks),
    ];
    if (p.sizes.length === 0) return [[...own, '', '']];
    return p.sizes.map((size) => [
      ...own,
      guardFormula(size.name),
      size.priceKopeks === null ? '' : String(size.priceKopeks),
    ]);
  });
}

/**
 * The import and the export against each other (contract §18), for generated catalogs with
 * separators, quotes, line breaks and non-ASCII text in their cells: a catalog exported and
 * imported again is unchanged, and a generated file imported then exported gives its own rows.
 */
describe('catalog import and export, for generated catalogs', () => {
  let s: Suite;

  beforeAll(async () => {
    s = await openSuite({ env: { RATE_LIMIT_PER_SECOND: '100000', RATE_LIMIT_BURST: '100000' } });
  });
  afterAll(() => closeSuite(s));

  const newBrand = async (): Promise<IssuedKey> =>
    issueKey(s.fx, await s.fx.brand(), { permissions: ['products.write', 'products.read'] });
  const exportOf = async (key: IssuedKey) =>
    (await request(s.t.http).get('/catalog/products/export').set(key.headers).buffer(true).expect(200)).text;
  const importInto = (key: IssuedKey, body: string | Buffer) =>
    request(s.t.http).post('/catalog/products/import').set(key.headers).set('Content-Type', 'text/csv').send(body);

  it('export then import changes nothing', async () => {
    await fc.assert(
      fc.asyncProperty(catalog, async (products) => {
        const key = await newBrand();
        for (const product of products) {
          await request(s.t.http)
            .post('/catalog/products')
            .set(key.headers)
            .send({
              ...product,
              storefrontArticle: product.storefrontArticle ?? undefined,
              sizes: product.sizes.map((z) => ({ name: z.name, priceKopeks: z.priceKopeks ?? undefined })),
            })
            .expect(201);
        }
        const exported = await exportOf(key);
        expect(parse(exported)).toEqual([COLUMNS, ...rowsOf(products)]);
        const answer = await importInto(key, exported).expect(200);
        expect(answer.body).toEqual({
          created: 0,
          updated: 0,
          unchanged: products.length,
          sizesCreated: 0,
          dryRun: false,
        });
        expect(await exportOf(key)).toBe(exported);
      }),
      { numRuns: 20 },
    );
  });

  it('a generated file imported, then exported, gives the same rows', async () => {
    const file = catalog.chain((products) =>
      fc.record({
        products: fc.constant(products),
        // The lines of different products interleave; each product's own stay in order.
        order: fc.shuffledSubarray(
          products.flatMap((p, i) => (p.sizes.length ? p.sizes.map(() => i) : [i])),
          { minLength: products.reduce((n, p) => n + Math.max(1, p.sizes.length), 0) },
        ),
        delimiter: fc.constantFrom(',', ';'),
        eol: fc.constantFrom('\n', '\r\n'),
        bom: fc.boolean(),
        repeatOwnCells: fc.boolean(),
      }),
    );
    await fc.assert(
      fc.asyncProperty(file, async ({ products, order, delimiter, eol, bom, repeatOwnCells }) => {
        const next = products.map(() => 0);
        const lines = order.map((i) => {
          const p = products[i];
          const first = next[i] === 0;
          const size = p.sizes[next[i]++];
          const own = first || repeatOwnCells;
          return [
            // Written as the export writes them, so that the file means the generated values.
            guardFormula(p.article),
            own ? guardFormula(p.name) : '',
            own ? guardFormula(p.storefrontArticle ?? '') : '',
            own ? String(p.priceKopeks) : '',
            guardFormula(size?.name ?? ''),
            size?.priceKopeks == null ? '' : String(size.priceKopeks),
          ];
        });
        // A cell with a line break is quoted (RFC 4180): unquoted, either ending ends the line (contract §18).
        const csv = stringify([COLUMNS, ...lines], { delimiter, record_delimiter: eol, quoted_match: /[\r\n]/ });
        const key = await newBrand();
        const answer = await importInto(key, Buffer.from((bom ? '\ufeff' : '') + csv, 'utf8')).expect(200);
        expect(answer.body).toEqual({
          created: products.length,
          updated: 0,
          unchanged: 0,
          sizesCreated: products.reduce((n, p) => n + p.sizes.length, 0),
          dryRun: false,
        });
        expect(parse(await exportOf(key))).toEqual([COLUMNS, ...rowsOf(products)]);
      }),
      { numRuns: 30 },
    );
  });
});
