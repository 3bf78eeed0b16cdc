import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import fc from 'fast-check';
import { CatalogImportService } from '../../src/catalog/catalog-import.service';
import { guardFormula } from '../../src/catalog/csv-formula-cells';
import type { BrandContext } from '../../src/common/context/request-context';
import { MAX_PRICE_KOPEKS } from '../../src/common/validation/money';
import { IdentityModule } from '../../src/identity/identity.module';
import { InventoryModule } from '../../src/inventory/inventory.module';
import { openMedium, type MediumSuite } from '../support/medium';
import { exportedCsv, mediumBrand, mediumProduct, superadminContext } from '../support/medium-fixtures';

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
  let s: MediumSuite;
  let imports: CatalogImportService;
  let admin: BrandContext;

  beforeAll(async () => {
    s = await openMedium([IdentityModule, InventoryModule]);
    imports = s.get(CatalogImportService);
    admin = await superadminContext(s, await mediumBrand(s));
  });
  afterAll(() => s?.close());

  /** The one superadministrator (a user's password hash costs more than a brand) in a brand of its own. */
  const newBrand = async (): Promise<BrandContext> => ({ ...admin, brandId: await mediumBrand(s) });
  const exportOf = (ctx: BrandContext) => exportedCsv(imports, ctx);
  const importInto = (ctx: BrandContext, body: string | Buffer) =>
    imports.import(ctx, Buffer.isBuffer(body) ? body : Buffer.from(body, 'utf8'), false);

  it('export then import changes nothing', async () => {
    await fc.assert(
      fc.asyncProperty(catalog, async (products) => {
        const ctx = await newBrand();
        for (const product of products) {
          await mediumProduct(s, ctx, {
            ...product,
            storefrontArticle: product.storefrontArticle ?? undefined,
            sizes: product.sizes.map((z) => ({ name: z.name, priceKopeks: z.priceKopeks ?? undefined })),
          });
        }
        const exported = await exportOf(ctx);
        expect(parse(exported)).toEqual([COLUMNS, ...rowsOf(products)]);
        expect(await importInto(ctx, exported)).toEqual({
          created: 0,
          updated: 0,
          unchanged: products.length,
          sizesCreated: 0,
          dryRun: false,
        });
        expect(await exportOf(ctx)).toBe(exported);
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
        const ctx = await newBrand();
        expect(await importInto(ctx, Buffer.from((bom ? '\ufeff' : '') + csv, 'utf8'))).toEqual({
          created: products.length,
          updated: 0,
          unchanged: 0,
          sizesCreated: products.reduce((n, p) => n + p.sizes.length, 0),
          dryRun: false,
        });
        expect(parse(await exportOf(ctx))).toEqual([COLUMNS, ...rowsOf(products)]);
      }),
      { numRuns: 30 },
    );
  });
});
