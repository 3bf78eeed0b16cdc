import { Client } from 'pg';
import { CatalogImportService } from '../../src/catalog/catalog-import.service';
import { CatalogService } from '../../src/catalog/catalog.service';
import type { BrandContext } from '../../src/common/context/request-context';
import { ErrorText } from '../../src/common/errors/error-texts';
import { MAX_PRICE_KOPEKS } from '../../src/common/validation/money';
import { IdentityModule } from '../../src/identity/identity.module';
import { InventoryModule } from '../../src/inventory/inventory.module';
import { InventoryService } from '../../src/inventory/inventory.service';
import { openMedium, type MediumSuite } from '../support/medium';
import { appErrorOf, exportedCsv, mediumBrand, mediumProduct, superadminContext } from '../support/medium-fixtures';

const HEADER = 'article,name,storefrontArticle,priceKopeks,size,sizePriceKopeks';
const csv = (lines: string[], eol = '\n') => lines.join(eol) + eol;

/**
 * The catalog import's rules (contract §18) on the catalog's own services: what a file creates and
 * changes, every kind of wrong line (all listed, nothing changed), the dry run, the events, the
 * export's order and round trip, and the set-based statements. What the route answers over HTTP
 * (its body handling, limits, statuses, the idempotency key) is the e2e suite's.
 */
describe('catalog import and export: the rules', () => {
  let s: MediumSuite;
  let imports: CatalogImportService;
  let catalog: CatalogService;

  const send = (ctx: BrandContext, file: string | Buffer, dryRun = false) =>
    imports.import(ctx, Buffer.isBuffer(file) ? file : Buffer.from(file, 'utf8'), dryRun);
  const products = (ctx: BrandContext) => catalog.list(ctx);
  const byArticle = async (ctx: BrandContext) => new Map((await products(ctx)).map((p) => [p.article, p]));
  let admin: BrandContext;
  /** A brand of its own, so that each case starts from an empty catalog; one superadministrator (a hash is slow). */
  const freshBrand = async (): Promise<BrandContext> => ({ ...admin, brandId: await mediumBrand(s) });

  beforeAll(async () => {
    s = await openMedium([IdentityModule, InventoryModule]);
    imports = s.get(CatalogImportService);
    catalog = s.get(CatalogService);
    admin = await superadminContext(s, await mediumBrand(s));
  });
  afterAll(() => s?.close());

  it('creates products and sizes from a comma-separated file; stock starts at 0', async () => {
    const ctx = await freshBrand();
    const file = csv([HEADER, 'A-1,Linen shirt,SF-A1,450000,M,', 'A-1,,,,XL,480000', 'A-2,Cap,,90000,,']);
    expect(await send(ctx, file)).toEqual({ created: 2, updated: 0, unchanged: 0, sizesCreated: 2, dryRun: false });
    const made = await byArticle(ctx);
    expect(made.get('A-1')).toMatchObject({
      name: 'Linen shirt',
      storefrontArticle: 'SF-A1',
      priceKopeks: 450000,
      sizes: [
        { name: 'M', priceKopeks: null, stock: 0 },
        { name: 'XL', priceKopeks: 480000, stock: 0 },
      ],
    });
    expect(made.get('A-2')).toMatchObject({ name: 'Cap', storefrontArticle: null, priceKopeks: 90000, sizes: [] });
  });

  it('takes size names whose lowercase differs between JavaScript and PostgreSQL (Greek final sigma, Turkish İ)', async () => {
    const ctx = await freshBrand();
    const file = `article,name,priceKopeks,size\nGR,Greek,100,ΑΣ\nTR,Turkish,100,${'İ'.repeat(50)}\n`;
    expect(await send(ctx, file)).toMatchObject({ created: 2, sizesCreated: 2 });
    // The same names again, in other cases, are the sizes already there.
    const again = `article,size\nGR,ασ\nTR,${'i'.repeat(50)}\n`;
    expect(await send(ctx, again)).toMatchObject({ created: 0, unchanged: 2, sizesCreated: 0 });
  });

  it('reads a file whose lines end differently: CRLF after an LF header, and LF after a CRLF one', async () => {
    const ctx = await freshBrand();
    expect(await send(ctx, 'article,name,priceKopeks\r\nA1,x,1\nB1,y,2\n')).toMatchObject({ created: 2 });
    expect(await send(ctx, 'article,name,priceKopeks\nC1,"x",3\r\nD1,y,4\r\n')).toMatchObject({ created: 2 });
  });

  it('all or nothing: every wrong line is listed with its fault, and nothing changes', async () => {
    const ctx = await freshBrand();
    await send(ctx, csv([HEADER, 'HELD,Held,SF-HELD,100,S,', 'KEEP,Keep,SF-KEEP,100,,', 'SWAP,Swap,SF-SWAP,100,,']));
    const before = await products(ctx);
    const file = csv([
      HEADER, // 1
      'OK-1,Fine,,100,M,', // 2: fine
      'NEW-1,,,100,,', // 3: a new product without a name
      'NEW-2,Priceless,,,,', // 4: a new product without a price
      ',Orphan,,100,,', // 5: no article
      'P-1,Price,,-5,,', // 6: a negative price
      'P-2,Price,,1.5,,', // 7: not an integer
      `P-3,Price,,${MAX_PRICE_KOPEKS + 1},,`, // 8: beyond the money bound
      'P-4,Price,,100,L,abc', // 9: a size price that is no number
      'SF-1,Taker,SF-HELD,100,,', // 10: a storefront article another product holds
      'SF-2,Twin,SF-NEW,100,,', // 11: claims SF-NEW first
      'SF-3,Twin too,SF-NEW,100,,', // 12: claims it as well
      'OK-1,Other name,,,,', // 13: another name for OK-1
      'OK-1,,,200,,', // 14: another price for OK-1
      'OK-1,,,,m,5', // 15: fine: size M, priced
      'OK-1,,,,M,6', // 16: size M again with another price
      'TOO,Long,,100,' + 'x'.repeat(51) + ',', // 17: a size name too long
      'CELLS,Short,100', // 18: too few cells
      'Q,"unclosed,,100,,', // 19: a quote never closed (the rest of the file with it)
    ]);
    const refused = await appErrorOf(send(ctx, file));
    const line = (n: number, ...texts: string[]) => ErrorText.importLine(n, texts);
    expect({ status: refused.status, error: refused.message, details: refused.details }).toEqual({
      status: 422,
      error: ErrorText.importHasErrors,
      details: [
        line(3, ErrorText.importNewProductNeeds('name')),
        line(4, ErrorText.importNewProductNeeds('priceKopeks')),
        line(5, ErrorText.importCellRequired('article')),
        line(6, ErrorText.importNotKopeks('priceKopeks', MAX_PRICE_KOPEKS)),
        line(7, ErrorText.importNotKopeks('priceKopeks', MAX_PRICE_KOPEKS)),
        line(8, ErrorText.importNotKopeks('priceKopeks', MAX_PRICE_KOPEKS)),
        line(9, ErrorText.importNotKopeks('sizePriceKopeks', MAX_PRICE_KOPEKS)),
        line(10, ErrorText.importStorefrontHeld('SF-HELD', 'HELD')),
        line(12, ErrorText.importStorefrontClaimed('SF-NEW', 11)),
        line(13, ErrorText.importDiffers('name', 'OK-1', 2)),
        line(14, ErrorText.importDiffers('priceKopeks', 'OK-1', 2)),
        line(16, ErrorText.importSizePriceDiffers('M', 15)),
        line(17, ErrorText.importTooLong('size', 50)),
        line(18, ErrorText.importCellCount(3, 6)),
        line(19, ErrorText.importQuoteNotClosed),
      ],
    });
    expect(await products(ctx)).toEqual(before);
    // The dry run finds the same faults.
    const dry = await appErrorOf(send(ctx, file, true));
    expect({ status: dry.status, details: dry.details }).toEqual({ status: 422, details: refused.details });
  });

  it('updates by article: empty cells change nothing, sizes match regardless of case, stock is never touched', async () => {
    const ctx = await freshBrand();
    await send(ctx, csv([HEADER, 'U-1,Shirt,SF-U1,1000,M,', 'U-1,,,,L,1200', 'U-2,Cap,SF-U2,500,,']));
    const before = await byArticle(ctx);
    const m = before.get('U-1')!.sizes.find((z) => z.name === 'M')!;
    await s.get(InventoryService).adjust(ctx, { sizeId: m.id, delta: 7, reason: 'count' });

    const answer = await send(
      ctx,
      csv([
        'article,name,priceKopeks,size,sizePriceKopeks,storefrontArticle',
        'U-1,,,m,900,', // M repriced (any case)
        'U-1,,,xl,,', // a size added
        'U-2,,,,,', // nothing said: unchanged
        'U-3,Scarf,300,,,', // created
      ]),
    );
    expect(answer).toEqual({ created: 1, updated: 1, unchanged: 1, sizesCreated: 1, dryRun: false });
    const after = await byArticle(ctx);
    expect(after.get('U-1')).toMatchObject({
      name: 'Shirt',
      storefrontArticle: 'SF-U1',
      priceKopeks: 1000,
      sizes: [
        { id: m.id, name: 'M', priceKopeks: 900, stock: 7 },
        { name: 'L', priceKopeks: 1200, stock: 0 },
        { name: 'xl', priceKopeks: null, stock: 0 },
      ],
    });
    expect(after.get('U-2')).toEqual(before.get('U-2'));

    // Storefront articles may change hands within one file (a swap), the result unique.
    expect(await send(ctx, csv(['article,storefrontArticle', 'U-1,SF-U2', 'U-2,SF-U1']))).toEqual({
      created: 0,
      updated: 2,
      unchanged: 0,
      sizesCreated: 0,
      dryRun: false,
    });
    const swapped = await byArticle(ctx);
    expect([swapped.get('U-1')!.storefrontArticle, swapped.get('U-2')!.storefrontArticle]).toEqual(['SF-U2', 'SF-U1']);
  });

  it('a dry run answers exactly what the import then does, and changes nothing', async () => {
    const ctx = await freshBrand();
    await send(ctx, csv([HEADER, 'D-1,One,,100,S,', 'D-2,Two,,100,,']));
    const before = await products(ctx);
    const file = csv([HEADER, 'D-1,One,,150,S,', 'D-1,,,,M,', 'D-2,Two,,100,,', 'D-3,Three,SF-D3,1,,']);
    const dry = await send(ctx, file, true);
    expect(dry).toEqual({ created: 1, updated: 1, unchanged: 1, sizesCreated: 1, dryRun: true });
    expect(await products(ctx)).toEqual(before);
    expect(await send(ctx, file)).toEqual({ ...dry, dryRun: false });
  });

  it('records product.created and product.updated for each product created or changed, numbered after earlier events', async () => {
    const ctx = await freshBrand();
    const made = await mediumProduct(s, ctx, { article: 'E-1', priceKopeks: 100, sizes: [{ name: 'S' }] });
    await send(ctx, csv([HEADER, 'E-1,,,,S,150', 'E-2,Two,,200,M,', 'E-3,Three,,300,,']));
    await send(ctx, csv([HEADER, 'E-1,,,,S,150', 'E-3,,,,,'])); // changes nothing
    const events: Array<{ subject_id: number; type: string; sequence: number; data: any }> = await s.dataSource.query(
      `SELECT subject_id, type, sequence, data FROM domain_events WHERE brand_id = $1 AND subject = 'product' ORDER BY id`,
      [ctx.brandId],
    );
    const after = await byArticle(ctx);
    expect(events.map((e) => [e.data.article, e.type, e.sequence]).sort()).toEqual([
      ['E-1', 'product.created', 1],
      ['E-1', 'product.updated', 2],
      ['E-2', 'product.created', 1],
      ['E-3', 'product.created', 1],
    ]);
    expect(events.find((e) => e.type === 'product.updated')!.data).toEqual({
      productId: made.id,
      article: 'E-1',
      storefrontArticle: null,
      name: 'Product E-1',
      priceKopeks: 100,
      sizes: [{ sizeId: made.sizes[0].id, name: 'S', priceKopeks: 150 }],
      sequence: 2,
    });
    expect(events.find((e) => e.data.article === 'E-2')!.data.sizes).toEqual([
      { sizeId: after.get('E-2')!.sizes[0].id, name: 'M', priceKopeks: null },
    ]);
  });

  it('exports CSV in article order, a line per size; importing it unchanged changes nothing', async () => {
    const ctx = await freshBrand();
    await send(
      ctx,
      csv([
        HEADER,
        'b-2,"Shirt, ""blue""",SF-B2,100,M,',
        'b-2,,,,L,120',
        'A-10,Cap,,50,,',
        'a-1,Scarf;wool,,70,One size,',
      ]),
    );
    const text = await exportedCsv(imports, ctx);
    expect(text).toBe(
      csv([
        HEADER,
        'A-10,Cap,,50,,',
        'a-1,Scarf;wool,,70,One size,',
        'b-2,"Shirt, ""blue""",SF-B2,100,M,',
        'b-2,"Shirt, ""blue""",SF-B2,100,L,120',
      ]),
    );
    expect(await send(ctx, text)).toEqual({ created: 0, updated: 0, unchanged: 3, sizesCreated: 0, dryRun: false });
    expect(await exportedCsv(imports, await freshBrand())).toBe(`${HEADER}\n`);
  });

  it('exports formula-like cells behind a leading quote and reads them back as they were (contract §18)', async () => {
    const ctx = await freshBrand();
    const values = [
      { article: '-A1', name: "=cmd|' /C calc'!A0", storefrontArticle: '@SF-1', size: '=S' },
      { article: 'A2', name: '=IMPORTXML("http://example.test/", "//a")', storefrontArticle: '+SF-2', size: '-' },
      { article: 'A3', name: "'=already quoted", storefrontArticle: null, size: '+1' },
      { article: 'A4', name: "it's plain", storefrontArticle: "'SF-4", size: '@home' },
    ];
    for (const v of values) {
      await mediumProduct(s, ctx, {
        article: v.article,
        name: v.name,
        storefrontArticle: v.storefrontArticle ?? undefined,
        priceKopeks: 100,
        sizes: [{ name: v.size }],
      });
    }
    const text = await exportedCsv(imports, ctx);
    const cells = text
      .trim()
      .split('\n')
      .slice(1)
      .flatMap((line) => line.split(/,(?=(?:[^"]*"[^"]*")*[^"]*$)/));
    // No cell starts with a formula's character: each such one has the quote before it.
    expect(cells.filter((cell) => /^"?[=+\-@\t\r]/.test(cell))).toEqual([]);
    expect(text).toContain(`'-A1,'=cmd|' /C calc'!A0,'@SF-1,100,'=S,`);
    expect(text).toContain(`A3,''=already quoted,,100,'+1,`);
    expect(text).toContain(`A4,it's plain,'SF-4,100,'@home,`);
    // The export imported unchanged is unchanged, every value read back as stored.
    expect(await send(ctx, text)).toEqual({ created: 0, updated: 0, unchanged: 4, sizesCreated: 0, dryRun: false });
    const after = await byArticle(ctx);
    for (const v of values) {
      expect(after.get(v.article)).toMatchObject({
        name: v.name,
        storefrontArticle: v.storefrontArticle,
        sizes: [{ name: v.size }],
      });
    }
    // A file of its own: the quote before a formula's character is dropped, any other kept.
    const other = await freshBrand();
    await send(other, csv(['article,name,priceKopeks', `'=B1,'+plus,1`, `B2,'quote,2`]));
    const imported = await byArticle(other);
    expect(imported.get('=B1')?.name).toBe('+plus');
    expect(imported.get('B2')?.name).toBe("'quote");
  });

  it('runs as many statements for 2 000 lines as for 2: set-based, not a round trip per line', async () => {
    const ctx = await freshBrand();
    const file = (n: number, prefix: string) =>
      csv([HEADER, ...Array.from({ length: n }, (_, i) => `${prefix}-${i},Name ${i},SF-${prefix}-${i},${i},M,${i}`)]);
    const statements = async (body: string) => {
      const spy = jest.spyOn(Client.prototype, 'query');
      try {
        await send(ctx, body);
        // The readers' notification after the commit (EventsCommitted) is not the import's, and its timing is its own.
        return spy.mock.calls.filter(([text]) => !String(text).includes('pg_notify')).length;
      } finally {
        spy.mockRestore();
      }
    };
    // Each twice: creating, then repricing what it created. No request runs around the import, so
    // the spy sees the import's statements (lock, reads, writes, events) and nothing else.
    const small = await statements(file(2, 'S'));
    const large = await statements(file(2_000, 'L'));
    expect(small).toBeGreaterThanOrEqual(7);
    expect(large).toBeLessThanOrEqual(small);
    const reprice = (body: string) => body.replace(/,M,(\d+)\n/g, (_, n: string) => `,M,${Number(n) + 1}\n`);
    expect(await statements(reprice(file(2_000, 'L')))).toBeLessThanOrEqual(await statements(reprice(file(2, 'S'))));
  });
});
