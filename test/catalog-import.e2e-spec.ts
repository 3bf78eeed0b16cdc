import { Client } from 'pg';
import request from 'supertest';
import { ErrorText } from '../src/common/errors/error-texts';
import { MAX_PRICE_KOPEKS } from '../src/common/validation/money';
import { createProduct, issueKey, type IssuedKey } from './support/fixtures';
import { closeSuite, openSuite, type Suite } from './support/suite';
import { bearer } from './support/test-app';
import { withClient } from './support/test-database';

const HEADER = 'article,name,storefrontArticle,priceKopeks,size,sizePriceKopeks';
const csv = (lines: string[], eol = '\n') => lines.join(eol) + eol;

interface Product {
  id: number;
  name: string;
  article: string;
  storefrontArticle: string | null;
  priceKopeks: number;
  sizes: Array<{ id: number; name: string; priceKopeks: number | null; stock: number }>;
}

/**
 * The catalog import and export (contract §18) on a real PostgreSQL: the file's forms, its limits,
 * every kind of wrong line (all listed, nothing changed), the upsert's rules, the dry run, events,
 * concurrent imports into one brand and the export's round trip.
 */
describe('catalog import and export', () => {
  let s: Suite;
  let brand: number;
  let writer: IssuedKey;

  const http = () => s.t.http;
  const send = (body: string | Buffer, options: { dryRun?: boolean; type?: string; key?: IssuedKey } = {}) =>
    request(http())
      .post(`/catalog/products/import${options.dryRun ? '?dryRun=true' : ''}`)
      .set((options.key ?? writer).headers)
      .set('Content-Type', options.type ?? 'text/csv')
      .send(body);
  const products = async (key = writer): Promise<Product[]> =>
    (await request(http()).get('/catalog/products').set(key.headers).expect(200)).body.items;
  const byArticle = async (key = writer) => new Map((await products(key)).map((p) => [p.article, p]));
  const exported = async (key = writer) => {
    const response = await request(http()).get('/catalog/products/export').set(key.headers).buffer(true).expect(200);
    return response;
  };
  /** A key of a brand of its own, so that each case starts from an empty catalog. */
  const freshBrand = async () => {
    const brandId = await s.fx.brand();
    return { ...(await issueKey(s.fx, brandId, { permissions: ['products.write', 'products.read'] })), brandId };
  };

  beforeAll(async () => {
    // No background workers: their polls would count among an import's statements (the set-based case).
    s = await openSuite({
      env: {
        RATE_LIMIT_PER_SECOND: '100000',
        RATE_LIMIT_BURST: '100000',
        WEBHOOK_WORKER: 'false',
        OUTBOX_WORKER: 'false',
      },
    });
    brand = await s.fx.brand();
    writer = await issueKey(s.fx, brand, { permissions: ['products.write', 'products.read'] });
  });
  afterAll(() => closeSuite(s));

  it('creates products and sizes from a comma-separated file; stock starts at 0', async () => {
    const key = await freshBrand();
    const file = csv([HEADER, 'A-1,Linen shirt,SF-A1,450000,M,', 'A-1,,,,XL,480000', 'A-2,Cap,,90000,,']);
    const response = await send(file, { key }).expect(200);
    expect(response.body).toEqual({ created: 2, updated: 0, unchanged: 0, sizesCreated: 2, dryRun: false });
    const catalog = await byArticle(key);
    expect(catalog.get('A-1')).toMatchObject({
      name: 'Linen shirt',
      storefrontArticle: 'SF-A1',
      priceKopeks: 450000,
      sizes: [
        { name: 'M', priceKopeks: null, stock: 0 },
        { name: 'XL', priceKopeks: 480000, stock: 0 },
      ],
    });
    expect(catalog.get('A-2')).toMatchObject({ name: 'Cap', storefrontArticle: null, priceKopeks: 90000, sizes: [] });
  });

  it('reads `;` files with a byte-order mark, CRLF lines and RFC 4180 quoting, columns in any order', async () => {
    const key = await freshBrand();
    const text = csv(
      ['size;priceKopeks;article;name', 'S;100;"Q;1";"Shirt ""Sea""; blue"', 'M;;"Q;1";', ';200;Q-2;"Two\r\nlines"'],
      '\r\n',
    );
    const body = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text, 'utf8')]);
    await send(body, { key, type: 'text/csv; charset=utf-8' }).expect(200, {
      created: 2,
      updated: 0,
      unchanged: 0,
      sizesCreated: 2,
      dryRun: false,
    });
    const catalog = await byArticle(key);
    expect(catalog.get('Q;1')).toMatchObject({ name: 'Shirt "Sea"; blue', sizes: [{ name: 'S' }, { name: 'M' }] });
    expect(catalog.get('Q-2')?.name).toBe('Two\r\nlines');
  });

  it('refuses a wrong header with 400 listing every problem', async () => {
    const expectHeader = async (file: string, details: string[]) => {
      const response = await send(file).expect(400);
      expect(response.body).toMatchObject({ error: details[0], details });
    };
    await expectHeader(csv(['article,colour,name,name', 'A,red,x,y']), [
      ErrorText.importUnknownColumn('colour'),
      ErrorText.importRepeatedColumn('name'),
    ]);
    await expectHeader(csv(['name,priceKopeks', 'x,1']), [ErrorText.importNoArticleColumn]);
    await expectHeader(csv(['Article', 'A']), [
      ErrorText.importUnknownColumn('Article'),
      ErrorText.importNoArticleColumn,
    ]);
    await expectHeader('', [ErrorText.importNoHeader]);
    await expectHeader(csv(['"article,name', 'A,b']), [ErrorText.importHeaderUnreadable]);
    const latin = Buffer.from('article,name\nA,caf\xe9\n', 'latin1');
    expect((await send(latin).expect(400)).body.details).toEqual([ErrorText.importNotUtf8]);
    // A header of millions of columns is refused at once, with one line, not one problem a column.
    const wide = `article,${'x,'.repeat(2_000_000)}\nA\n`;
    expect((await send(wide).expect(400)).body.details).toEqual([ErrorText.importTooManyColumns(2_000_002, 32)]);
    const unknown = `article,${'y'.repeat(5000)},${'y'.repeat(5000)}\nA,1,2\n`;
    expect((await send(unknown).expect(400)).body.details).toEqual([
      ErrorText.importUnknownColumn(`${'y'.repeat(100)}…`),
    ]);
  });

  it('takes size names whose lowercase differs between JavaScript and PostgreSQL (Greek final sigma, Turkish İ)', async () => {
    const { headers } = await freshBrand();
    const post = (body: string) =>
      request(http()).post('/catalog/products/import').set(headers).set('Content-Type', 'text/csv').send(body);
    const file = `article,name,priceKopeks,size\nGR,Greek,100,ΑΣ\nTR,Turkish,100,${'İ'.repeat(50)}\n`;
    expect((await post(file).expect(200)).body).toMatchObject({ created: 2, sizesCreated: 2 });
    // The same names again, in other cases, are the sizes already there.
    const again = `article,size\nGR,ασ\nTR,${'i'.repeat(50)}\n`;
    expect((await post(again).expect(200)).body).toMatchObject({ created: 0, unchanged: 2, sizesCreated: 0 });
  });

  it('reads a file whose lines end differently: CRLF after an LF header, and LF after a CRLF one', async () => {
    const { headers } = await freshBrand();
    const post = (body: string) =>
      request(http()).post('/catalog/products/import').set(headers).set('Content-Type', 'text/csv').send(body);
    expect((await post('article,name,priceKopeks\r\nA1,x,1\nB1,y,2\n').expect(200)).body).toMatchObject({ created: 2 });
    expect((await post('article,name,priceKopeks\nC1,"x",3\r\nD1,y,4\r\n').expect(200)).body).toMatchObject({
      created: 2,
    });
  });

  it('takes text/csv with or without charset=utf-8; any other Content-Type gets 415', async () => {
    const key = await freshBrand();
    await send(csv(['article,name,priceKopeks', 'T-1,x,1']), { key, type: 'text/csv;charset=UTF-8' }).expect(200);
    for (const type of ['text/csv; charset=latin1', 'text/plain', 'application/octet-stream', 'text/csvx']) {
      const response = await send('article\nT-1\n', { key, type });
      expect({ type, status: response.status }).toEqual({ type, status: 415 });
      expect(typeof response.body.error).toBe('string');
    }
    const json = await request(http())
      .post('/catalog/products/import')
      .set(key.headers)
      .send({ article: 'T-1' })
      .expect(415);
    expect(json.body.error).toBe(ErrorText.unsupportedMediaTypeCsv);
    const bodiless = await request(http()).post('/catalog/products/import').set(key.headers).expect(415);
    expect(bodiless.body.error).toBe(ErrorText.unsupportedMediaTypeCsv);
    // Other routes still take JSON only; an unknown route is still a 404 on Fastify (Express refuses the type first).
    await request(http())
      .post('/catalog/products')
      .set(key.headers)
      .set('Content-Type', 'text/csv')
      .send('article\nX\n')
      .expect(415);
    const unknown = await request(http())
      .post('/catalog/products/importer')
      .set(key.headers)
      .set('Content-Type', 'text/csv')
      .send('article\nX\n');
    expect([404, 415]).toContain(unknown.status);
    if (process.env.HTTP_ADAPTER !== 'express') expect(unknown.status).toBe(404);
  });

  it('answers 413 past 10 000 data lines or 5 MiB; blank lines count; other routes keep 1 MiB', async () => {
    const key = await freshBrand();
    const lines = (n: number) => Array.from({ length: n }, (_, i) => `L-${i},n,1`);
    const over = await send(csv(['article,name,priceKopeks', ...lines(10_001)]), { key }).expect(413);
    expect(over.body.error).toBe(ErrorText.payloadTooLarge);
    const large = Buffer.alloc(5 * 1024 * 1024 + 1, 'a');
    expect((await send(large, { key }).expect(413)).body.error).toBe(ErrorText.payloadTooLarge);
    // Just under 5 MiB is read (and judged: its one long line is not a valid file).
    const long = `article,name\n${'b'.repeat(5 * 1024 * 1024 - 100)}\n`;
    expect((await send(long, { key })).status).toBe(422);
    // A blank line counts (contract §18): 5 000 lines and 5 000 blank ones are the most a file may hold.
    const blanks = csv(['article,name,priceKopeks', ...lines(5_000).flatMap((line) => [line, ''])]);
    expect((await send(blanks, { key, dryRun: true }).expect(200)).body.created).toBe(5_000);
    expect((await send(`${blanks}\n`, { key, dryRun: true }).expect(413)).body.error).toBe(ErrorText.payloadTooLarge);
    // 5 MiB of line ends is refused as soon as the 10 001st is read, not parsed whole.
    const started = performance.now();
    await send(`article,name,priceKopeks\n${'\n'.repeat(5_242_000)}`, { key, dryRun: true }).expect(413);
    expect(performance.now() - started).toBeLessThan(5_000);
    const json = await request(http())
      .post('/catalog/products')
      .set(key.headers)
      .set('Content-Type', 'application/json')
      .send(`{"name":"${'x'.repeat(1024 * 1024)}"}`)
      .expect(413);
    expect(json.body.error).toBe(ErrorText.payloadTooLarge);
    // CSV too: another route reads no more than 1 MiB of it (Fastify refuses its type before reading any).
    const elsewhere = await request(http())
      .post('/catalog/products')
      .set(key.headers)
      .set('Content-Type', 'text/csv')
      .send('x'.repeat(2 * 1024 * 1024));
    // Fastify refuses the type before reading; Express reads up to its JSON limit first.
    expect(elsewhere.status).toBe(process.env.HTTP_ADAPTER === 'express' ? 413 : 415);
  });

  it('all or nothing: every wrong line is listed with its fault, and nothing changes', async () => {
    const key = await freshBrand();
    await send(csv([HEADER, 'HELD,Held,SF-HELD,100,S,', 'KEEP,Keep,SF-KEEP,100,,', 'SWAP,Swap,SF-SWAP,100,,']), {
      key,
    }).expect(200);
    const before = await products(key);
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
    const response = await send(file, { key }).expect(422);
    const line = (n: number, ...texts: string[]) => ErrorText.importLine(n, texts);
    expect(response.body).toMatchObject({
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
    expect(await products(key)).toEqual(before);
    // The dry run finds the same faults.
    expect((await send(file, { key, dryRun: true }).expect(422)).body.details).toEqual(response.body.details);
  });

  it('updates by article: empty cells change nothing, sizes match regardless of case, stock is never touched', async () => {
    const key = await freshBrand();
    await send(csv([HEADER, 'U-1,Shirt,SF-U1,1000,M,', 'U-1,,,,L,1200', 'U-2,Cap,SF-U2,500,,']), { key }).expect(200);
    const before = await byArticle(key);
    const m = before.get('U-1')!.sizes.find((z) => z.name === 'M')!;
    await request(http())
      .post('/inventory/adjustments')
      .set((await issueKey(s.fx, key.brandId, { permissions: ['stock.write'] })).headers)
      .send({ sizeId: m.id, delta: 7, reason: 'count' })
      .expect(201);

    const response = await send(
      csv([
        'article,name,priceKopeks,size,sizePriceKopeks,storefrontArticle',
        'U-1,,,m,900,', // M repriced (any case)
        'U-1,,,xl,,', // a size added
        'U-2,,,,,', // nothing said: unchanged
        'U-3,Scarf,300,,,', // created
      ]),
      { key },
    ).expect(200);
    expect(response.body).toEqual({ created: 1, updated: 1, unchanged: 1, sizesCreated: 1, dryRun: false });
    const after = await byArticle(key);
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
    await send(csv(['article,storefrontArticle', 'U-1,SF-U2', 'U-2,SF-U1']), { key }).expect(200, {
      created: 0,
      updated: 2,
      unchanged: 0,
      sizesCreated: 0,
      dryRun: false,
    });
    const swapped = await byArticle(key);
    expect([swapped.get('U-1')!.storefrontArticle, swapped.get('U-2')!.storefrontArticle]).toEqual(['SF-U2', 'SF-U1']);
  });

  it('a dry run answers exactly what the import then does, and changes nothing', async () => {
    const key = await freshBrand();
    await send(csv([HEADER, 'D-1,One,,100,S,', 'D-2,Two,,100,,']), { key }).expect(200);
    const before = await products(key);
    const file = csv([HEADER, 'D-1,One,,150,S,', 'D-1,,,,M,', 'D-2,Two,,100,,', 'D-3,Three,SF-D3,1,,']);
    const dry = await send(file, { key, dryRun: true }).expect(200);
    expect(dry.body).toEqual({ created: 1, updated: 1, unchanged: 1, sizesCreated: 1, dryRun: true });
    expect(await products(key)).toEqual(before);
    const real = await send(file, { key }).expect(200);
    expect(real.body).toEqual({ ...dry.body, dryRun: false });
    await request(http())
      .post('/catalog/products/import?dryRun=yes')
      .set(key.headers)
      .set('Content-Type', 'text/csv')
      .send(file)
      .expect(400);
  });

  it('records product.created and product.updated for each product created or changed, numbered after earlier events', async () => {
    const key = await freshBrand();
    const brandId = key.brandId;
    const made = await createProduct(s.fx, brandId, { article: 'E-1', priceKopeks: 100, sizes: [{ name: 'S' }] });
    await send(csv([HEADER, 'E-1,,,,S,150', 'E-2,Two,,200,M,', 'E-3,Three,,300,,']), { key }).expect(200);
    await send(csv([HEADER, 'E-1,,,,S,150', 'E-3,,,,,']), { key }).expect(200); // changes nothing
    const events = await withClient(s.db.url, async (c) => {
      const rows = await c.query(
        `SELECT subject_id, type, sequence, data FROM domain_events WHERE brand_id = $1 AND subject = 'product' ORDER BY id`,
        [brandId],
      );
      return rows.rows as Array<{ subject_id: number; type: string; sequence: number; data: any }>;
    });
    const catalog = await byArticle(key);
    expect(events.map((e) => [e.data.article, e.type, e.sequence]).sort()).toEqual([
      ['E-1', 'product.created', 1],
      ['E-1', 'product.updated', 2],
      ['E-2', 'product.created', 1],
      ['E-3', 'product.created', 1],
    ]);
    const e1 = events.find((e) => e.type === 'product.updated')!.data;
    expect(e1).toEqual({
      productId: made.id,
      article: 'E-1',
      storefrontArticle: null,
      name: 'Product E-1',
      priceKopeks: 100,
      sizes: [{ sizeId: made.sizes[0].id, name: 'S', priceKopeks: 150 }],
      sequence: 2,
    });
    expect(events.find((e) => e.data.article === 'E-2')!.data.sizes).toEqual([
      { sizeId: catalog.get('E-2')!.sizes[0].id, name: 'M', priceKopeks: null },
    ]);
  });

  it('concurrent imports into one brand: no duplicate article or size, no lost change', async () => {
    const key = await freshBrand();
    // A key of its own for each: one caller's imports at once are bounded (CATALOG_IMPORTS_PER_CALLER).
    const keys = await Promise.all(
      Array.from({ length: 6 }, () => issueKey(s.fx, key.brandId, { permissions: ['products.write'] })),
    );
    const files = Array.from({ length: 6 }, (_, i) =>
      csv([
        HEADER,
        `C-SHARED,Shared,,100,size-${i},${100 + i}`,
        `C-SHARED,,,,common,`,
        `C-${i},Own ${i},SF-C-${i},${i},,`,
      ]),
    );
    const answers = await Promise.all(files.map((file, i) => send(file, { key: keys[i] })));
    expect(answers.map((a) => a.status)).toEqual(files.map(() => 200));
    expect(answers.reduce((n, a) => n + (a.body.created as number), 0)).toBe(7);
    expect(answers.reduce((n, a) => n + (a.body.sizesCreated as number), 0)).toBe(7);
    const catalog = await byArticle(key);
    expect(catalog.size).toBe(7);
    expect(
      catalog
        .get('C-SHARED')!
        .sizes.map((z) => `${z.name}:${z.priceKopeks}`)
        .sort(),
    ).toEqual(['common:null', ...files.map((_, i) => `size-${i}:${100 + i}`)].sort());
    // The shared product: created by one import, changed by each other, its events numbered without a gap.
    const events = await withClient(s.db.url, async (c) => {
      const rows = await c.query(
        `SELECT type, sequence, jsonb_array_length(data->'sizes') AS sizes FROM domain_events
          WHERE subject = 'product' AND subject_id = $1 ORDER BY sequence`,
        [catalog.get('C-SHARED')!.id],
      );
      return rows.rows as Array<{ type: string; sequence: number; sizes: number }>;
    });
    expect(events.map((e) => e.sequence)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(events.map((e) => e.type)).toEqual(['product.created', ...Array(5).fill('product.updated')]);
    // Each event saw every size the imports before it had added.
    expect(events.map((e) => e.sizes)).toEqual([2, 3, 4, 5, 6, 7]);
  });

  it('exports CSV in article order, a line per size, streamed; importing it unchanged changes nothing', async () => {
    const key = await freshBrand();
    await send(
      csv([
        HEADER,
        'b-2,"Shirt, ""blue""",SF-B2,100,M,',
        'b-2,,,,L,120',
        'A-10,Cap,,50,,',
        'a-1,Scarf;wool,,70,One size,',
      ]),
      { key },
    ).expect(200);
    const response = await exported(key);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.text).toBe(
      csv([
        HEADER,
        'A-10,Cap,,50,,',
        'a-1,Scarf;wool,,70,One size,',
        'b-2,"Shirt, ""blue""",SF-B2,100,M,',
        'b-2,"Shirt, ""blue""",SF-B2,100,L,120',
      ]),
    );
    await send(response.text, { key }).expect(200, {
      created: 0,
      updated: 0,
      unchanged: 3,
      sizesCreated: 0,
      dryRun: false,
    });
    const empty = await exported(await freshBrand());
    expect(empty.text).toBe(`${HEADER}\n`);
  });

  it('exports formula-like cells behind a leading quote and reads them back as they were (contract §18)', async () => {
    const key = await freshBrand();
    const values = [
      { article: '-A1', name: "=cmd|' /C calc'!A0", storefrontArticle: '@SF-1', size: '=S' },
      { article: 'A2', name: '=IMPORTXML("http://example.test/", "//a")', storefrontArticle: '+SF-2', size: '-' },
      { article: 'A3', name: "'=already quoted", storefrontArticle: null, size: '+1' },
      { article: 'A4', name: "it's plain", storefrontArticle: "'SF-4", size: '@home' },
    ];
    for (const v of values) {
      await createProduct(s.fx, key.brandId, {
        article: v.article,
        name: v.name,
        storefrontArticle: v.storefrontArticle ?? undefined,
        priceKopeks: 100,
        sizes: [{ name: v.size }],
      });
    }
    const text = (await exported(key)).text;
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
    await send(text, { key }).expect(200, { created: 0, updated: 0, unchanged: 4, sizesCreated: 0, dryRun: false });
    const catalog = await byArticle(key);
    for (const v of values) {
      expect(catalog.get(v.article)).toMatchObject({
        name: v.name,
        storefrontArticle: v.storefrontArticle,
        sizes: [{ name: v.size }],
      });
    }
    // A file of its own: the quote before a formula's character is dropped, any other kept.
    const other = await freshBrand();
    await send(csv(['article,name,priceKopeks', `'=B1,'+plus,1`, `B2,'quote,2`]), { key: other }).expect(200);
    const imported = await byArticle(other);
    expect(imported.get('=B1')?.name).toBe('+plus');
    expect(imported.get('B2')?.name).toBe("'quote");
  });

  it('exports more products than one page holds, in order', async () => {
    const key = await freshBrand();
    const lines = Array.from({ length: 1234 }, (_, i) => `X-${String(i).padStart(5, '0')},n,,${i},s,`);
    await send(csv([HEADER, ...lines]), { key }).expect(200);
    const response = await exported(key);
    expect(response.text).toBe(csv([HEADER, ...lines]));
    // Sent as it is read, page by page: no length known up front.
    expect(response.headers['content-length']).toBeUndefined();
    expect(response.headers['transfer-encoding']).toBe('chunked');
  });

  it('runs as many statements for 2 000 lines as for 2: set-based, not a round trip per line', async () => {
    const key = await freshBrand();
    const file = (n: number, prefix: string) =>
      csv([HEADER, ...Array.from({ length: n }, (_, i) => `${prefix}-${i},Name ${i},SF-${prefix}-${i},${i},M,${i}`)]);
    const statements = async (body: string) => {
      const spy = jest.spyOn(Client.prototype, 'query');
      try {
        await send(body, { key }).expect(200);
        return spy.mock.calls.length;
      } finally {
        spy.mockRestore();
      }
    };
    // Each twice: creating, then repricing what it created.
    const small = await statements(file(2, 'S'));
    const large = await statements(file(2_000, 'L'));
    // The spy sees the import's statements (lock, reads, writes, events) and those of the request around them.
    expect(small).toBeGreaterThanOrEqual(7);
    expect(large).toBeLessThanOrEqual(small + 3);
    const reprice = (body: string) => body.replace(/,M,(\d+)\n/g, (_, n: string) => `,M,${Number(n) + 1}\n`);
    expect(await statements(reprice(file(2_000, 'L')))).toBeLessThanOrEqual(
      (await statements(reprice(file(2, 'S')))) + 3,
    );
  });

  it('honours Idempotency-Key: a repeat gets the first answer and changes nothing; another file with it is refused', async () => {
    const key = await freshBrand();
    const file = csv(['article,name,priceKopeks', 'I-1,One,100']);
    const first = await send(file, { key }).set('Idempotency-Key', 'import-1').expect(200);
    const again = await send(file, { key }).set('Idempotency-Key', 'import-1').expect(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(first.body.created).toBe(1);
    const other = await send(csv(['article,name,priceKopeks', 'I-2,Two,100']), { key }).set(
      'Idempotency-Key',
      'import-1',
    );
    expect({ status: other.status, error: other.body.error }).toEqual({
      status: 422,
      error: ErrorText.idempotencyKeyReused,
    });
    expect((await products(key)).map((p) => p.article)).toEqual(['I-1']);
    // A check and then the import under one key: the import is not answered with the check.
    const next = csv(['article,name,priceKopeks', 'I-3,Three,100']);
    await send(next, { key, dryRun: true }).set('Idempotency-Key', 'import-2').expect(200, {
      created: 1,
      updated: 0,
      unchanged: 0,
      sizesCreated: 0,
      dryRun: true,
    });
    const real = await send(next, { key }).set('Idempotency-Key', 'import-2');
    expect(real.headers['idempotent-replayed']).toBeUndefined();
    expect({ status: real.status, error: real.body.error }).toEqual({
      status: 422,
      error: ErrorText.idempotencyKeyReused,
    });
  });

  it('an integration key without products.write is refused; a session with it may import', async () => {
    const reader = await issueKey(s.fx, brand, { permissions: ['products.read'] });
    const refused = await send(csv(['article', 'A']), { key: reader }).expect(403);
    expect(refused.body.error).toBe(ErrorText.missingPermission('products.write'));
    const member = await s.fx.member(brand, ['products.write', 'products.read']);
    await request(http())
      .post('/catalog/products/import?dryRun=true')
      .set(bearer(member))
      .set('Content-Type', 'text/csv')
      .send(csv(['article,name,priceKopeks', 'SESSION-1,x,1']))
      .expect(200);
  });
});
