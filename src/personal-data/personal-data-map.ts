/**
 * Every column that may hold a buyer's personal data (contract §17) and how it is anonymised,
 * grouped by the rows that hold a copy for an order. The erasure runs these and nothing else
 * (personal-data.repository.ts), so a copy missing here is a copy left behind: the map suite
 * (test/personal-data-map.e2e-spec.ts) fails on any column of the schema that could hold text of a
 * buyer and is neither here nor in REVIEWED_NOT_PERSONAL.
 */
export interface PersonalDataCopy {
  table: string;
  /** The rows holding copies for the orders whose ids are `$1` (int[]); the row is aliased `t`. */
  rowsOf: string;
  /** Each column, what of the buyer it holds, and the SQL value it becomes (over `t`). */
  columns: Array<{ column: string; holds: string; anonymised: string }>;
  /**
   * The stored answers of Idempotency-Keys: besides their columns here, every text in them that
   * quotes a value the other copies held is emptied (stored-answer-scrub.ts), whatever its field.
   */
  storedAnswers?: true;
}

/** What an order's answer becomes: its recipient and comment emptied as §17 says. */
const ANONYMOUS_ORDER = `'{"comment": "", "recipient": {"fullName": "", "surname": "", "firstName": "", "patronymic": "", "phone": "", "email": null}}'::jsonb`;

/** A stored answer that is a full order, or holds one under `order`, with its buyer's data gone. */
const anonymisedAnswer = (body: string) =>
  `CASE WHEN ${body} ? 'recipient' THEN ${body} || ${ANONYMOUS_ORDER}
        WHEN ${body}->'order' ? 'recipient' THEN jsonb_set(${body}, '{order}', (${body}->'order') || ${ANONYMOUS_ORDER})
        ELSE ${body} END`;

const ORDER_IDS_TEXT = '$1::int[]::text[]';

export const PERSONAL_DATA_MAP: readonly PersonalDataCopy[] = [
  {
    table: 'orders',
    rowsOf: 't.id = ANY($1::int[])',
    columns: [
      { column: 'recipient_full_name', holds: 'name', anonymised: `''` },
      { column: 'recipient_surname', holds: 'surname', anonymised: `''` },
      { column: 'recipient_first_name', holds: 'first name', anonymised: `''` },
      { column: 'recipient_patronymic', holds: 'patronymic', anonymised: `''` },
      { column: 'recipient_phone', holds: 'phone as sent', anonymised: `''` },
      { column: 'recipient_phone_normalized', holds: 'phone, E.164', anonymised: 'NULL' },
      { column: 'recipient_email', holds: 'e-mail', anonymised: 'NULL' },
      { column: 'comment', holds: "the buyer's comment", anonymised: `''` },
      // Not the buyer's fields, but free text or a link that may name them; §17 keeps only the order's facts.
      { column: 'cancel_reason', holds: "staff's words on a cancellation", anonymised: 'NULL' },
      { column: 'waybill_url', holds: "the carrier's waybill, which shows the recipient", anonymised: 'NULL' },
    ],
  },
  {
    // A return's reason as its integration wrote it may quote the buyer.
    table: 'returns',
    rowsOf: 't.order_id = ANY($1::int[])',
    columns: [{ column: 'reason_note', holds: "the return's free-text reason", anonymised: 'NULL' }],
  },
  {
    // Follow-up jobs name their order by id; a failed carrier call's error may quote the request.
    table: 'outbox',
    // Only a job with an error text can hold the buyer (the condition of its index, ix_outbox_order).
    rowsOf: `t.payload->>'orderId' = ANY(${ORDER_IDS_TEXT}) AND (t.last_error IS NOT NULL OR t.payload ? 'lastError')`,
    columns: [
      {
        column: 'last_error',
        holds: "the carrier's or SMTP server's error, which may quote the buyer",
        anonymised: 'NULL',
      },
      {
        column: 'payload',
        holds: 'a copied lastError (staff mails of a failed shipment)',
        anonymised: `t.payload - 'lastError'`,
      },
    ],
  },
  {
    // The answers of POST /orders/admin (`{order}`) and of a cancellation (the order), replayed on a retry.
    table: 'idempotency_keys',
    storedAnswers: true,
    rowsOf: `(t.response_body->'order'->>'id' = ANY(${ORDER_IDS_TEXT}) OR t.response_body->>'id' = ANY(${ORDER_IDS_TEXT}))`,
    columns: [
      { column: 'response_body', holds: 'the order as answered', anonymised: anonymisedAnswer('t.response_body') },
      {
        // What the request's transactions returned (a resumed run's results), needed only until it is answered.
        column: 'effects',
        holds: "the results of the request's writes",
        anonymised: `CASE WHEN t.response_status IS NULL THEN t.effects ELSE '{}' END`,
      },
    ],
  },
];

/**
 * Columns that could hold free text and were reviewed as holding none of a buyer's data, each with
 * why. A new text, JSON or binary column, or one named like a person's data, goes here or into the map.
 */
export const REVIEWED_NOT_PERSONAL: Readonly<Record<string, string>> = {
  'migrations.name': "the migrations' own names",
  'users.email': "staff accounts, not buyers'",
  'users.password_hash': 'a staff password hash',
  'login_failures.email': 'staff logins that failed',
  'invitations.email': "a future team member's address, not a buyer's",
  'invitations.permissions': 'permission names',
  'invitations.token_hash': "a digest of an invitation's token",
  'password_resets.token_hash': "a digest of a reset's token",
  'login_challenges.token_hash': "a digest of a sign-in's challenge token",
  'totp_authenticators.secret_sealed': "a staff account's sealed authenticator secret",
  'recovery_codes.code_hash': "a digest of a staff account's recovery code",
  'passkeys.name': 'the name a staff member gave a passkey',
  'passkeys.public_key': "a staff passkey's public key",
  'passkeys.transports': 'WebAuthn transport names',
  'memberships.permissions': 'permission names',
  'brands.name': "the store's name",
  'brands.staff_email': "the store's staff address",
  'integration_keys.name': "an integration's name",
  'integration_keys.allowed_ips': 'addresses of integrations',
  'integration_keys.permissions': 'permission names',
  'integration_keys.fingerprint': 'a digest of a key',
  'site_keys.fingerprint': 'a digest of a key',
  'production_sites.name': "a site's name",
  'products.name': 'catalog',
  'products.attributes': 'catalog',
  'product_sizes.name': 'catalog',
  'product_sizes.name_key': 'catalog',
  'stock_movements.note': 'stock notes of staff, no order data',
  'stock_movements.reason': 'a reason code',
  'orders.delivery_city': 'the delivery point, kept by §17',
  'orders.delivery_pvz_address': 'the delivery point, kept by §17',
  'returns.reason_code': 'a reason code',
  'domain_events.data': 'order events carry no recipient field (orderEventData; the map suite checks)',
  'domain_events.stock_article': 'catalog, in a stock event',
  'domain_events.stock_storefront_article': 'catalog, in a stock event',
  'domain_events.stock_size': 'catalog, in a stock event',
  'domain_events.stock_reason': 'a reason code, in a stock event',
  'webhook_messages.payload': 'the data of the domain events, as above',
  'webhook_attempts.response_body': "a receiver's answer to our message, which carries no recipient field",
  'webhook_attempts.error': 'a connection error',
  'webhook_deliveries.success_body': "a receiver's answer to our message, which carries no recipient field",
  'webhook_endpoints.url': "an integration's address",
  'webhook_endpoints.description': "an integration's description",
  'webhook_endpoints.event_types': 'event type names',
  'webhook_endpoints.secret_sealed': 'an encrypted signing secret',
  'webhook_endpoints.previous_secret_sealed': 'an encrypted signing secret',
  'inbound_events.payload': "the bank's and carrier's events: order number, amounts, statuses",
  'idempotency_keys.request_hash': 'a SHA-256 digest of the request',
  'security_journal.path': 'paths without query strings, and no route takes personal data in its path',
  'security_journal.details': 'never written with personal data (§17)',
  'request_failures.path': 'paths without query strings of integration-key requests',
  'request_failures.error': 'error texts, which never quote a request field',
};

/** The columns the map names, as `table.column`. */
export const MAPPED_COLUMNS: readonly string[] = PERSONAL_DATA_MAP.flatMap((copy) =>
  copy.columns.map(({ column }) => `${copy.table}.${column}`),
);
