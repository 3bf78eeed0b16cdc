// The module graph's rules, checked by `npm run lint` (and so by CI).
// A feature module is a folder of src/. Another module may use its module file, its dto/, its
// entities and principals (its principal types), and the providers it exports, listed here; the
// rest is its own business. common/, config/ and database/ are shared mechanisms anyone may use.
const EXPORTED = {
  'security-journal': ['security-journal.service.ts', 'brand-ownership.ts'],
  'stock-ledger': ['stock-ledger.ts', 'stock-events.ts'],
  'inbound-events': ['inbound-events.ts'],
  outbox: ['outbox.ts', 'outbox-jobs.repository.ts'],
  orders: [
    'order-lifecycle.ts',
    'order-fulfilment.ts',
    'carrier-status.ts',
    'follow-up-data.ts',
    // The full order answers of the personal-data export; its phone normalisation.
    'admin/orders.service.ts',
    'recipient-parsing.ts',
    'order-events.ts',
  ],
  returns: ['returns.service.ts', 'return-events.ts'],
  'domain-events': [
    'domain-events.ts',
    'domain-events.sql.ts',
    'event-columns.ts',
    'event-family.ts',
    'events-horizon.ts',
    // The store's read side, which the events API pages through.
    'events.repository.ts',
    'event-cursor.ts',
    // What the events API's long polls wait for.
    'events-committed.ts',
  ],
  // Every owner's declaration of its events, which the webhooks offer to subscribe to.
  'events-api': ['event-families.ts'],
  webhooks: [
    'webhooks.sql.ts',
    'webhook-dispatcher.ts',
    'delivery-wake.ts',
    'webhook-figures.ts',
    // The messages' part of the OpenAPI document, which setup-app builds.
    'webhook-messages.openapi.ts',
  ],
  // The primary of `npm run start:cluster` serves every worker's figures.
  metrics: ['cluster-metrics.ts', 'metrics-server.ts'],
  catalog: [
    'catalog-matcher.ts',
    'catalog.service.ts',
    'catalog.sql.ts',
    // The import's own body declaration, which setup-app hands to both platforms' body handling.
    'catalog-import-body.ts',
    'product-events.ts',
  ],
  identity: [
    'identity.sql.ts',
    'brands.service.ts',
    'users.service.ts',
    // The link of an invitation's mail, which the outbox's mail job sends.
    'invitation-mail.ts',
    // The reset mail's step before it is sent, which the outbox's mail job runs.
    'passwords.service.ts',
  ],
  inventory: ['inventory.service.ts'],
  // The replays' part of the OpenAPI document, which setup-app builds.
  idempotency: ['idempotent-post.decorator.ts', 'read-only-post.decorator.ts', 'idempotency.openapi.ts'],
  'access-keys': [
    'key-checks.ts',
    // What a key looks like and its fingerprint: the request log identifies keys the guards never saw.
    'integration-key-format.ts',
    'integration-key-owners.ts',
    'verify-key.query.ts',
    'statement-key/key-checked-by-statement.decorator.ts',
    'statement-key/pending-key-check.ts',
  ],
};
const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const PUBLIC_EVERYWHERE = ['\\.module\\.ts$', '/dto/', '\\.entity\\.ts$', '\\.principal\\.ts$'];
const FEATURES = [
  'access-keys',
  'admin-area',
  'catalog',
  'delivery',
  'domain-events',
  'events-api',
  'health',
  'idempotency',
  'identity',
  'inbound-events',
  'inventory',
  'metrics',
  'notifications',
  'orders',
  'outbox',
  'payments',
  'personal-data',
  'production-sites',
  'request-log',
  'returns',
  'security-journal',
  'stock-ledger',
  'webhooks',
];

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'No import cycles between files.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-folder-cycles',
      comment: 'No import cycles between folders: the module graph is a hierarchy.',
      severity: 'error',
      scope: 'folder',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-database-in-controllers',
      comment: 'Controllers are thin: the data layer is reached through a service or repository.',
      severity: 'error',
      from: { path: '\\.controller\\.ts$' },
      to: { path: '(^|/)node_modules/(typeorm|@nestjs/typeorm|pg)/' },
    },
    {
      name: 'shared-mechanisms-stand-alone',
      comment: 'common/, config/ and database/ serve every module and depend on none of them.',
      severity: 'error',
      from: { path: '^src/(common|config|database)/' },
      to: { path: `^src/(${FEATURES.map(escape).join('|')})/` },
    },
    ...FEATURES.map((feature) => ({
      name: `only-public-parts-of-${feature}`,
      comment: `Other modules use ${feature} through its module, dto/, entities, principals and exported providers only.`,
      severity: 'error',
      from: { path: '^src/', pathNot: `^src/${escape(feature)}/` },
      to: {
        path: `^src/${escape(feature)}/`,
        pathNot: [
          ...PUBLIC_EVERYWHERE,
          ...(EXPORTED[feature] ?? []).map((file) => `^src/${escape(feature)}/${escape(file)}$`),
        ],
      },
    })),
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '\\.spec\\.ts$' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
  },
};
