import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/*
 * The data layer's two rules, read from the sources: statements live in data files, and a table
 * is named in SQL only by the module that owns it. Another module reads it through the owner's
 * exported provider or statement part (the `*.sql.ts` files, the ledger's LedgerSql, the outbox's
 * enqueueSql). And the module boundaries that keep the core free of what builds on it.
 */

const SRC = join(__dirname);

/** Where statements may be run: repositories, statement files, the shared database mechanisms. */
const DATA_FILE = [
  /\.repository\.ts$/,
  /\.sql\.ts$/,
  /\.query\.ts$/,
  /^database\//,
  // The storefront order's statements and their runner.
  /^orders\/order-(statements|writer)\.ts$/,
  // Providers that are nothing but one or two statements of their module.
  /^stock-ledger\/stock-ledger\.ts$/,
  /^outbox\/outbox\.ts$/,
  /^inbound-events\/inbound-events\.ts$/,
  /^domain-events\/domain-events\.ts$/,
];

const RUNS_STATEMENTS =
  /\.query\(|getRepository\(|createQueryBuilder\(|@InjectDataSource|@InjectRepository|statements\.(run|read|write)/;

/** Each table and the folders that may name it in SQL. */
const OWNERS: Record<string, string[]> = {
  users: ['identity'],
  brands: ['identity'],
  memberships: ['identity'],
  sessions: ['identity'],
  login_failures: ['identity'],
  invitations: ['identity'],
  password_resets: ['identity'],
  totp_authenticators: ['identity'],
  recovery_codes: ['identity'],
  passkeys: ['identity'],
  login_challenges: ['identity'],
  session_passkey_challenges: ['identity'],
  // personal-data reads which keys are a brand's, to find the stored answers an erasure empties.
  integration_keys: ['access-keys', 'personal-data'],
  production_sites: ['production-sites', 'personal-data'],
  site_keys: ['production-sites', 'personal-data'],
  // The ledger's stock events name their product's articles; catalog uses the ledger, so the
  // ledger reads them itself rather than through a part of the catalog's (a cycle otherwise).
  products: ['catalog', 'stock-ledger'],
  // The ledger is the one writer of a size's stock.
  product_sizes: ['catalog', 'stock-ledger'],
  stock_movements: ['stock-ledger'],
  acceptances: ['inventory'],
  // personal-data finds a buyer's orders, locks them and empties its map's columns
  // (personal-data-map.ts) in every table holding a copy; their state stays OrderLifecycle's.
  orders: ['orders', 'personal-data'],
  order_items: ['orders'],
  brand_order_counts: ['orders'],
  outbox: ['outbox', 'personal-data'],
  inbound_events: ['inbound-events'],
  security_journal: ['security-journal'],
  returns: ['returns', 'personal-data'],
  return_items: ['returns'],
  return_numbers: ['returns'],
  brand_return_counts: ['returns'],
  domain_events: ['domain-events'],
  domain_event_floors: ['domain-events'],
  idempotency_keys: ['idempotency', 'personal-data'],
  personal_data_retention: ['personal-data'],
  webhook_endpoints: ['webhooks'],
  webhook_messages: ['webhooks'],
  webhook_deliveries: ['webhooks'],
  webhook_attempts: ['webhooks'],
  request_counts: ['request-log'],
  request_failures: ['request-log'],
};

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'migrations' ? [] : sources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') ? [relative(SRC, path)] : [];
  });
}

const files = sources(SRC).map((file) => ({ file, text: readFileSync(join(SRC, file), 'utf8') }));

describe('the data layer', () => {
  it('runs statements only in data files', () => {
    const offenders = files
      .filter(({ file, text }) => !DATA_FILE.some((pattern) => pattern.test(file)) && RUNS_STATEMENTS.test(text))
      .map(({ file }) => file);
    expect(offenders).toEqual([]);
  });

  // A pipelined write sent while a transaction holds locks could wait behind one waiting on them,
  // forever (PipelinedConnections, docs/performance.md PERF-16). A runtime check needs AsyncLocalStorage,
  // which on Node 20 turns on promise hooks for the whole process and made every request dearer,
  // so each file that sends one is reviewed and listed.
  it('sends pipelined writes only from the storefront writer, which holds no transaction', () => {
    const senders = files.filter(({ text }) => /statements\.write\b/.test(text)).map(({ file }) => file);
    expect(senders).toEqual(['orders/order-writer.ts']);
  });

  it('names each table only in the modules that own it', () => {
    const offenders: string[] = [];
    for (const { file, text } of files) {
      const folder = file.split('/')[0];
      for (const match of text.matchAll(/\b(?:FROM|JOIN|INTO|UPDATE)\s+([a-z_]+)\b/g)) {
        const owners = OWNERS[match[1]];
        if (owners && !owners.includes(folder)) offenders.push(`${file}: ${match[1]}`);
      }
    }
    expect(offenders).toEqual([]);
  });

  it('knows every table the migrations create', () => {
    const created = new Set<string>();
    const dir = join(SRC, 'database', 'migrations');
    for (const name of readdirSync(dir)) {
      for (const match of readFileSync(join(dir, name), 'utf8').matchAll(
        /CREATE TABLE (?:IF NOT EXISTS )?"?([a-z_]+)/g,
      ))
        created.add(match[1]);
    }
    expect([...created].sort()).toEqual(Object.keys(OWNERS).sort());
  });
});

describe('the module boundaries', () => {
  const importsOf = (text: string) => [...text.matchAll(/from '([^']+)'/g)].map((m) => m[1]);

  // The webhooks subscribe to the domain events (WebhookFanOut); the core does not call them.
  it('keeps the order and return core and the domain events free of the webhooks module', () => {
    const offenders = files
      .filter(({ file }) => /^(orders|returns|domain-events)\//.test(file))
      .flatMap(({ file, text }) =>
        importsOf(text)
          .filter((from) => from.includes('/webhooks/'))
          .map((from) => `${file}: ${from}`),
      );
    expect(offenders).toEqual([]);
  });

  // The statement-checked key is one mechanism of access-keys/, used by the storefront lane.
  it('names the pending key check only in access-keys/ and orders/', () => {
    const offenders = files
      .filter(({ file, text }) => !/^(access-keys|orders)\//.test(file) && /pendingKey|PendingKeyCheck/.test(text))
      .map(({ file }) => file);
    expect(offenders).toEqual([]);
  });
});
