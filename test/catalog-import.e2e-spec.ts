import type { Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import request from 'supertest';
import { CatalogImportSlots } from '../src/catalog/catalog-import-slots';
import { ErrorText } from '../src/common/errors/error-texts';
import { eventually } from './support/eventually';
import { issueKey, type IssuedKey } from './support/fixtures';
import { closeSuite, openSuite, type Suite } from './support/suite';
import { bearer } from './support/test-app';

const HEADER = 'article,name,storefrontArticle,priceKopeks,size,sizePriceKopeks';
const csv = (lines: string[], eol = '\n') => lines.join(eol) + eol;
const FILE_LIMIT = 5 * 1024 * 1024;

interface Product {
  id: number;
  name: string;
  article: string;
  storefrontArticle: string | null;
  priceKopeks: number;
  sizes: Array<{ id: number; name: string; priceKopeks: number | null; stock: number }>;
}

/**
 * The catalog import and export (contract §18) as the routes answer them: the file's forms and
 * media types, its limits (400, 413, 415, 429 and their texts), the guards before the file is
 * read, the idempotency key and the export's streamed answer. The import's rules (merging, faults,
 * dry run, events, concurrency, round trips) are the medium suites' (test/medium/catalog-import*).
 */
describe('catalog import and export over HTTP', () => {
  let s: Suite;
  let port: number;
  let brand: number;
  let writer: IssuedKey;
  const sockets: Socket[] = [];

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
  /** A key of a brand of its own, so that each case starts from an empty catalog. */
  const freshBrand = async () => {
    const brandId = await s.fx.brand();
    return { ...(await issueKey(s.fx, brandId, { permissions: ['products.write', 'products.read'] })), brandId };
  };

  beforeAll(async () => {
    s = await openSuite({
      env: {
        RATE_LIMIT_PER_SECOND: '100000',
        RATE_LIMIT_BURST: '100000',
        WEBHOOK_WORKER: 'false',
        OUTBOX_WORKER: 'false',
        // Small, so that the bounds are reached with a few stalled uploads.
        CATALOG_IMPORTS_PER_INSTANCE: '3',
        CATALOG_IMPORTS_PER_CALLER: '2',
      },
    });
    const server = s.t.http as Server;
    if (!server.listening) await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as { port: number }).port;
    brand = await s.fx.brand();
    writer = await issueKey(s.fx, brand, { permissions: ['products.write', 'products.read'] });
  });
  afterEach(() => {
    for (const socket of sockets.splice(0)) socket.destroy();
  });
  afterAll(() => closeSuite(s));

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
    // dryRun is `true` or `false`, nothing else.
    await request(http())
      .post('/catalog/products/import?dryRun=yes')
      .set(key.headers)
      .set('Content-Type', 'text/csv')
      .send('article\nT-1\n')
      .expect(400);
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
    const judged = await send(long, { key }).expect(422);
    expect(judged.body.error).toBe(ErrorText.importHasErrors);
    expect(judged.body.details).toEqual([expect.stringMatching(/^line 2: /)]);
    // A blank line counts (contract §18): 5 000 lines and 5 000 blank ones are the most a file may hold.
    const blanks = csv(['article,name,priceKopeks', ...lines(5_000).flatMap((line) => [line, ''])]);
    expect((await send(blanks, { key, dryRun: true }).expect(200)).body.created).toBe(5_000);
    expect((await send(`${blanks}\n`, { key, dryRun: true }).expect(413)).body.error).toBe(ErrorText.payloadTooLarge);
    // 5 MiB of line ends is refused (the parser stops at the 10 001st: catalog-csv.spec.ts; no timing here).
    await send(`article,name,priceKopeks\n${'\n'.repeat(5_242_000)}`, { key, dryRun: true }).expect(413);
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

  it('exports CSV in article order, streamed page by page: text/csv, no length known up front', async () => {
    const key = await freshBrand();
    const lines = Array.from({ length: 1234 }, (_, i) => `X-${String(i).padStart(5, '0')},n,,${i},s,`);
    await send(csv([HEADER, ...lines]), { key }).expect(200);
    const response = await request(http()).get('/catalog/products/export').set(key.headers).buffer(true).expect(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.text).toBe(csv([HEADER, ...lines]));
    expect(response.headers['content-length']).toBeUndefined();
    expect(response.headers['transfer-encoding']).toBe('chunked');
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

  describe('what an import may take of the instance', () => {
    /** A request whose headers promise a whole file, of which it sends a few bytes and then nothing more. */
    const stalled = (headers: Record<string, string>) =>
      new Promise<{ socket: Socket; answer: Promise<string> }>((resolve, reject) => {
        const socket = connect(port, '127.0.0.1', () => {
          const lines = Object.entries({ ...headers, 'content-type': 'text/csv', 'content-length': String(FILE_LIMIT) })
            .map(([name, value]) => `${name}: ${value}\r\n`)
            .join('');
          socket.write(`POST /catalog/products/import?dryRun=true HTTP/1.1\r\nhost: 127.0.0.1\r\n${lines}\r\narticle,`);
          let text = '';
          const answer = new Promise<string>((done) => {
            socket.on('data', (chunk: Buffer) => {
              text += chunk.toString('latin1');
              if (text.includes('\r\n\r\n') && text.includes('}')) done(text);
            });
            socket.on('close', () => done(text));
          });
          resolve({ socket, answer });
        });
        socket.on('error', reject);
        sockets.push(socket);
      });
    const statusOf = (answer: string) => Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1]);
    const within = <T>(ms: number, promise: Promise<T>) =>
      Promise.race([
        promise,
        new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`not within ${ms} ms`)), ms)),
      ]);

    it('refuses an upload without a credential or the permission at once, before its file has come', async () => {
      const anonymous = await stalled({});
      const refused = await within(2_000, anonymous.answer);
      expect(statusOf(refused)).toBe(401);
      const reader = await issueKey(s.fx, brand, { permissions: ['products.read'] });
      const unpermitted = await stalled(reader.headers);
      const forbidden = await within(2_000, unpermitted.answer);
      expect(statusOf(forbidden)).toBe(403);
      expect(forbidden).toContain(ErrorText.missingPermission('products.write'));
    });

    it('bounds imports at once per caller and per instance (429 with Retry-After), and frees a slot when one ends', async () => {
      const tryImport = (headers: Record<string, string>, csv = 'article\nA\n') =>
        request(s.t.http)
          .post('/catalog/products/import?dryRun=true')
          .set(headers)
          .set('Content-Type', 'text/csv')
          .send(csv);
      const slots = s.t.app.get(CatalogImportSlots);
      const first = await stalled(writer.headers);
      const second = await stalled(writer.headers);
      // The two take their slots once their credentials are checked and the server waits for their files.
      await eventually(() => expect(slots.inUse).toBe(2), 10_000);
      const caller = await tryImport(writer.headers).expect(429);
      expect(caller.body.error).toBe(ErrorText.importsBusyForCaller);
      expect(caller.headers['retry-after']).toMatch(/^\d+$/);
      expect(typeof caller.body.requestId).toBe('string');
      const other = await issueKey(s.fx, brand, { permissions: ['products.write'] });
      const third = await stalled(other.headers);
      const another = await issueKey(s.fx, brand, { permissions: ['products.write'] });
      await eventually(() => expect(slots.inUse).toBe(3), 10_000);
      const instance = await tryImport(another.headers).expect(429);
      expect(instance.body.error).toBe(ErrorText.importsBusy);
      // A client that gives up gives its slot back.
      for (const { socket } of [first, second, third]) socket.destroy();
      await eventually(() => expect(slots.inUse).toBe(0), 10_000);
      await tryImport(writer.headers, 'article,name,priceKopeks\nA,x,1\n').expect(200);
    });
  });
});
