import { orderEventData } from '../src/orders/order-event-data.sql';
import { MAPPED_COLUMNS, PERSONAL_DATA_MAP, REVIEWED_NOT_PERSONAL } from '../src/personal-data/personal-data-map';
import { createTestDatabase, withClient, type TestDatabase } from './support/test-database';

/**
 * The personal-data map cannot rot (contract §17): every column of the migrated schema that could
 * hold a buyer's text (any text, JSON, binary or array column, and any character column named like
 * a person's data) is either erased by the map or reviewed as holding none, and neither list names
 * a column that is gone.
 */
describe('the personal-data map', () => {
  let db: TestDatabase;
  let columns: string[];

  beforeAll(async () => {
    db = await createTestDatabase();
    columns = await withClient(db.url, async (c) =>
      (
        await c.query<{ name: string }>(
          `SELECT table_name || '.' || column_name AS name FROM information_schema.columns
            WHERE table_schema = 'public'
              AND (data_type IN ('text', 'json', 'jsonb', 'bytea', 'ARRAY', 'USER-DEFINED')
                   OR (data_type IN ('character varying', 'character')
                       AND column_name ~ '(name|phone|tel|msisdn|mail|fio|comment|recipient|addr|street|note|error|body|path|reason|description|contact|buyer|customer|person|passport|birth|city|url|text|details|message)'))
            ORDER BY 1`,
        )
      ).rows.map((row) => row.name),
    );
  });
  afterAll(() => db?.drop());

  it('lists or reviews every column that could hold a buyer’s data', () => {
    const unlisted = columns.filter((column) => !MAPPED_COLUMNS.includes(column) && !(column in REVIEWED_NOT_PERSONAL));
    expect(unlisted).toEqual([]);
  });

  it('names only columns that exist, each once', () => {
    const named = [...MAPPED_COLUMNS, ...Object.keys(REVIEWED_NOT_PERSONAL)];
    expect(named.filter((column) => !columns.includes(column))).toEqual([]);
    expect(new Set(named).size).toBe(named.length);
  });

  it('erases every recipient column of orders', () => {
    const recipient = columns.filter((column) => /^orders\.(recipient_|comment$)/.test(column));
    const erased = PERSONAL_DATA_MAP.find((copy) => copy.table === 'orders')!.columns.map((c) => `orders.${c.column}`);
    expect(erased).toEqual(expect.arrayContaining(recipient));
    // Free text and the carrier's waybill may name the buyer too: §17 keeps only the order's facts.
    expect(erased).toEqual(expect.arrayContaining(['orders.cancel_reason', 'orders.waybill_url']));
  });

  // Domain events and webhook messages are reviewed as free of buyers' data because of this.
  it('keeps recipient fields out of the order events’ data', () => {
    expect(orderEventData('o')('1')).not.toMatch(/recipient|comment|phone|email|name/);
  });
});
