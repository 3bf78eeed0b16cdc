import { NamedParameters } from '../database/named-parameters';
import { domainEventsSql } from '../domain-events/domain-events.sql';
import {
  ACCEPT_STOREFRONT_ORDER_PARAMS,
  ACCEPT_STOREFRONT_ORDER_WITH_KEY_PARAMS,
  INSERT_ORDER,
  INSERT_ORDER_PARAMS,
  lineArrays,
  orderValues,
  storefrontStatements,
} from './order-statements';
import type { NewOrder } from './new-order';

const placeholders = (text: string) => new Set([...text.matchAll(/\$(\d+)/g)].map((m) => Number(m[1])));

/** Splits a SQL list on its top-level commas. */
const topLevelItems = (list: string) => {
  const items: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of list) {
    if (ch === '(') depth++;
    if (ch === ')') depth--;
    if (ch === ',' && depth === 0) {
      items.push(current.trim());
      current = '';
    } else current += ch;
  }
  return [...items, current.trim()];
};

const order: NewOrder = {
  brandId: 7,
  source: 'platform',
  partnerOrderId: null,
  status: 'new',
  paymentStatus: 'pending',
  orderedAt: new Date(0),
  recipient: { fullName: 'Ivanova Maria Petrovna', phone: '+7 912 000-00-00' },
  lines: [
    {
      productId: 1,
      sizeId: 2,
      article: 'A',
      storefrontArticle: null,
      size: 'M',
      catalogPriceKopeks: 100,
      quantity: 3,
      priceKopeks: 100,
    },
  ],
};

// A subscriber of the kind DomainEvents composes in: its parts use no placeholder of their own.
const storefront = storefrontStatements(
  domainEventsSql([
    {
      wants: (brandId, types) =>
        `EXISTS (SELECT 1 FROM brands b WHERE b.id = ${brandId} AND ARRAY[${types.join(', ')}]::text[] <> '{}')`,
      ctes: (events) => `probe AS (INSERT INTO probes (type) SELECT type FROM ${events} RETURNING 1)`,
      written: '(SELECT count(*) FROM probe)::int',
      committed: () => undefined,
    },
  ]),
);
const plainParams = ACCEPT_STOREFRONT_ORDER_PARAMS as NamedParameters<string>;
const keyParams = ACCEPT_STOREFRONT_ORDER_WITH_KEY_PARAMS as NamedParameters<string>;

describe.each([
  ['INSERT_ORDER', INSERT_ORDER.text, INSERT_ORDER_PARAMS as NamedParameters<string>],
  ['the storefront statement', storefront.plain.full.text, plainParams],
  ['the storefront statement, unheard', storefront.plain.unheard.text, plainParams],
  ['the storefront statement with the key check', storefront.withKey.full.text, keyParams],
  ['the storefront statement with the key check, unheard', storefront.withKey.unheard.text, keyParams],
])('%s', (_name, text, params) => {
  it('uses exactly the placeholders its named parameters give, each at least once', () => {
    expect([...placeholders(text)].sort((a, b) => a - b)).toEqual(params.names.map((_, i) => i + 1));
  });

  it('gives every name its own placeholder, in the order values() returns them', () => {
    expect(new Set(params.names).size).toBe(params.names.length);
    const byName = Object.fromEntries(params.names.map((name) => [name, `value of ${name}`]));
    const values = params.values(byName);
    params.names.forEach((name, i) => {
      expect(params.$[name]).toBe(`$${i + 1}`);
      expect(values[i]).toBe(`value of ${name}`);
    });
  });

  it('writes as many values as it names order columns', () => {
    const columns = /INSERT INTO orders \(([^)]*)\)/.exec(text)![1];
    const values =
      /INSERT INTO orders \([^)]*\)\s*(?:VALUES \(([\s\S]*?)\)\s*ON CONFLICT|SELECT ([\s\S]*?)\s*FROM \(SELECT)/.exec(
        text,
      )!;
    expect(topLevelItems(values[1] ?? values[2])).toHaveLength(topLevelItems(columns).length);
  });
});

describe('the values of a platform order', () => {
  it('fill every parameter of INSERT_ORDER, none left undefined', () => {
    const values = INSERT_ORDER_PARAMS.values({
      ...orderValues(order),
      itemsTotalKopeks: 300,
      totalKopeks: 300,
      ...lineArrays(order),
    });
    expect(values).toHaveLength(INSERT_ORDER_PARAMS.names.length);
    expect(values.filter((v) => v === undefined)).toEqual([]);
    expect(values[INSERT_ORDER_PARAMS.names.indexOf('brandId')]).toBe(7);
    expect(values[INSERT_ORDER_PARAMS.names.indexOf('recipientSurname')]).toBe('Ivanova');
    expect(values[INSERT_ORDER_PARAMS.names.indexOf('quantities')]).toEqual([3]);
  });
});

describe('the storefront statements and the domain events', () => {
  const all = [storefront.plain.full, storefront.plain.unheard, storefront.withKey.full, storefront.withKey.unheard];

  it("record the order's event and its sizes' stock events in every form", () => {
    for (const statement of all) {
      expect(statement.text).toContain(`'order.created'`);
      expect(statement.text).toContain(`'stock.changed'`);
      expect(statement.text.match(/INSERT INTO domain_events/g)).toHaveLength(1);
      // The new order's event is its first and each size's comes from its row (PERF-27): no last event is read.
      expect(statement.text).not.toContain('LEFT JOIN LATERAL');
      expect(statement.text).not.toContain('ORDER BY ev.subject');
    }
    expect(storefront.plain.unheard.text).not.toMatch(/RETURNING id, brand_id, type, data, occurred_at/);
  });

  it("write the subscribers' parts only in the full form", () => {
    expect(storefront.plain.full.text).toContain('probe AS (INSERT INTO probes');
    expect(storefront.plain.full.text).toContain('((SELECT count(*) FROM probe)::int) AS written');
    expect(storefront.plain.unheard.text).not.toContain('probe AS');
    expect(storefront.plain.unheard.text).toContain('0 AS written');
  });

  it('ask the subscribers once whether the brand listens for either event, in the form without their parts', () => {
    expect(storefront.plain.unheard.text).toContain(`AND ARRAY['order.created', 'stock.changed']::text[] <> '{}'`);
    expect(storefront.plain.unheard.text.match(/FROM brands b/g)).toHaveLength(1);
    expect(storefront.withKey.unheard.text).toContain(`WHERE b.id = (SELECT brand_id FROM key_ok)`);
    expect(storefront.plain.full.text).toContain('SELECT false AS yes');
  });

  it('record the events and nothing else when nothing subscribes', () => {
    const bare = storefrontStatements(domainEventsSql([]));
    expect(bare.plain.full.text).toContain('INSERT INTO domain_events');
    expect(bare.plain.full.text).toContain('0 AS written');
    expect(bare.plain.unheard.text).toContain('SELECT false AS yes');
  });
});
