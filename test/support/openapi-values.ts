import fc from 'fast-check';

/** The part of an OpenAPI schema object the generators read. */
export interface Schema {
  $ref?: string;
  type?: string;
  enum?: unknown[];
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  allOf?: Schema[];
  minimum?: number;
  maximum?: number;
  nullable?: boolean;
  additionalProperties?: boolean | Schema;
}

const deeplyNested = (levels: number, leaf: unknown = 1) => {
  let value: unknown = leaf;
  for (let i = 0; i < levels; i++) value = i % 2 ? [value] : { a: value };
  return value;
};

/**
 * Values that once gave a 500 somewhere, or come near a limit: NUL, lone surrogates (a text cut
 * inside an emoji), deep nesting, null, arrays
 * where objects belong, integers past int4, int8 and 2^53, texts that look like numbers.
 */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(
    null,
    '',
    'a\u0000b',
    '\u0000',
    '\ud800',
    'a@b.example\udc00',
    '\u{1F600}'.slice(0, 1),
    [],
    [[]],
    [null],
    {},
    0,
    -1,
    2_147_483_648,
    9_007_199_254_740_992,
    1e20,
    -1e20,
    1.5,
    '0x1',
    '1e3',
    true,
    'x'.repeat(10_000),
    { __proto__x: 1 },
    deeplyNested(40),
    deeplyNested(2000),
  ),
  fc.string({ maxLength: 20 }),
  fc.integer(),
  fc.double(),
  fc.jsonValue({ maxDepth: 3 }),
);

const KNOWN_TEXTS = fc.constantFrom(
  '2026-11-22T10:00:00Z',
  'a@b.example',
  'SF-F',
  'S',
  'F-1',
  '+79120000000',
  'Ivanov Ivan',
  'P-1',
);

/** Mostly well-formed values of the schema, with a hostile one in place of any part. */
export function valueOf(schema: Schema, depth = 0): fc.Arbitrary<unknown> {
  if (depth > 6) return hostileValue;
  const wellFormed = wellFormedOf(schema, depth);
  return fc.oneof({ weight: 12, arbitrary: wellFormed }, { weight: 1, arbitrary: hostileValue });
}

function wellFormedOf(schema: Schema, depth: number): fc.Arbitrary<unknown> {
  if (schema.allOf?.length) return valueOf(schema.allOf[0], depth);
  if (schema.enum?.length) return fc.constantFrom(...schema.enum);
  switch (schema.type) {
    case 'integer':
    case 'number': {
      const min = schema.minimum ?? -1000;
      const max = schema.maximum ?? 1_000_000;
      return fc.oneof(
        { weight: 6, arbitrary: fc.integer({ min: Math.max(min, -2_147_483_648), max: Math.min(max, 2_147_483_647) }) },
        fc.constantFrom(min, max, max + 1, min - 1, 2_147_483_647, 2_147_483_648),
      );
    }
    case 'boolean':
      return fc.boolean();
    case 'string':
      // Texts the fixtures know (so the rest of a body can be valid), sometimes with a NUL or half an emoji in them.
      return fc.oneof(
        { weight: 4, arbitrary: KNOWN_TEXTS },
        fc.string({ maxLength: 30 }),
        KNOWN_TEXTS.map((text) => `${text}\u0000`),
        KNOWN_TEXTS.map((text) => `${text}\ud83d`),
      );
    case 'array':
      return fc.array(schema.items ? valueOf(schema.items, depth + 1) : hostileValue, { maxLength: 3 });
    default: {
      const properties = schema.properties ?? {};
      if (Object.keys(properties).length === 0)
        return fc.dictionary(fc.string({ maxLength: 8 }), hostileValue, { maxKeys: 3 });
      const record: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [name, property] of Object.entries(properties)) record[name] = valueOf(property, depth + 1);
      return fc.record(record, { requiredKeys: schema.required?.filter((name) => name in properties) ?? [] });
    }
  }
}
