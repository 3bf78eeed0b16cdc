import 'reflect-metadata';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { plainToInstance, Type } from 'class-transformer';
import type { MetadataStorage as TransformerStorage } from 'class-transformer/types/MetadataStorage';
import {
  getMetadataStorage,
  IsDefined,
  IsInt,
  IsOptional,
  IsString,
  validate,
  ValidateIf,
  Validate,
  ValidateNested,
  ValidatorConstraint,
  type ValidatorConstraintInterface,
  type ValidatorOptions,
} from 'class-validator';
import { PartnerOrderDto } from '../../orders/dto/partner-order.dto';
import { cacheValidationMetadata } from './validation-metadata-cache';
import { ValidityCheck } from './validity-check';

const OPTIONS: ValidatorOptions = {
  whitelist: true,
  forbidUnknownValues: true,
  validationError: { target: false, value: false },
};

@ValidatorConstraint({ async: true })
class SlowlyTrue implements ValidatorConstraintInterface {
  validate(): Promise<boolean> {
    return Promise.resolve(true);
  }
}

/** Both verdicts on two copies of one body as JSON gives it, and the copies after each has stripped them. */
async function bothOn(type: new () => object, plain: unknown, options = OPTIONS) {
  const text = JSON.stringify(plain);
  const fast: object = plainToInstance(type, JSON.parse(text) as Record<string, unknown>);
  const full: object = plainToInstance(type, JSON.parse(text) as Record<string, unknown>);
  const passes = new ValidityCheck().passes(fast, options);
  const errors = await validate(full, options);
  return { passes, valid: errors.length === 0, fast, full };
}

// Every DTO of the service, so that the rules the check meets are the ones the service has.
function loadDtos(dir: string): void {
  for (const name of readdirSync(dir)) {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) loadDtos(file);
    else if (/(\.dto|\/dto\/[^/]+)\.ts$/.test(file) && !file.endsWith('.spec.ts')) jest.requireActual(file);
  }
}

// Where class-transformer keeps @Type, to build nested values of the right class.
const { defaultMetadataStorage } = jest.requireActual<{ defaultMetadataStorage: TransformerStorage }>(
  'class-transformer/cjs/storage',
);

type Class = new () => object;

/** A small seeded generator, so that a failure names the value that caused it. */
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

type Metadata = ReturnType<ReturnType<typeof getMetadataStorage>['getTargetValidationMetadatas']>[number];

/** Values near every bound the rules name, their examples, and values of every JSON type. */
function candidatesFor(target: Class, property: string, rules: Metadata[]): unknown[] {
  const values: unknown[] = [undefined, null, '', 'a', 0, 1, -1, 1.5, 2 ** 53, true, false, [], {}, ['a'], 'x@y.co'];
  values.push('https://example.com/a', '2026-11-24T10:00:00Z', '10.0.0.0/8', ' padded ', '\u0000');
  const swagger = Reflect.getMetadata('swagger/apiModelProperties', target.prototype, property) as
    { example?: unknown; enum?: unknown[] } | undefined;
  if (swagger?.example !== undefined) values.push(swagger.example, [swagger.example]);
  if (Array.isArray(swagger?.enum)) values.push(...swagger.enum);
  for (const rule of rules) {
    for (const constraint of rule.constraints ?? []) {
      if (typeof constraint === 'number' && Number.isFinite(constraint)) {
        values.push(constraint, constraint - 1, constraint + 1, 'x'.repeat(Math.min(Math.max(constraint, 0), 5000)));
        values.push('x'.repeat(Math.min(Math.max(constraint + 1, 0), 5000)));
      }
      if (Array.isArray(constraint)) values.push(...constraint, constraint);
    }
  }
  return values;
}

/** A plain value for `type`: each property from its candidates, nested classes built the same way. */
function plainOf(type: Class, next: () => number, depth = 0): Record<string, unknown> {
  const storage = getMetadataStorage();
  const byProperty = storage.groupByPropertyName(storage.getTargetValidationMetadatas(type, '', false, false));
  const plain: Record<string, unknown> = {};
  for (const [property, rules] of Object.entries(byProperty)) {
    const nested = defaultMetadataStorage.findTypeMetadata(type, property);
    const roll = next();
    if (nested && depth < 3 && roll < 0.5) {
      const inner = (nested.typeFunction as () => Class)();
      plain[property] =
        next() < 0.5
          ? plainOf(inner, next, depth + 1)
          : [plainOf(inner, next, depth + 1), plainOf(inner, next, depth + 1)];
      continue;
    }
    const candidates = candidatesFor(type, property, rules);
    const value = candidates[Math.floor(next() * candidates.length)];
    if (value !== undefined || next() < 0.5) plain[property] = value;
  }
  if (next() < 0.2) plain.unknownField = 'stripped';
  return plain;
}

describe('ValidityCheck', () => {
  it('passes a storefront order as class-validator does, and strips the same unknown fields', async () => {
    const order = {
      partnerOrderId: 'B-1',
      recipient: { fullName: 'Bench Buyer Testovich', phone: '+7 912 345-67-89', extra: 1 },
      items: [{ article: 'SF-1', size: 'M', quantity: 2, colour: 'red' }],
      delivery: { city: 'Kazan', deliveryCostKopeks: 30000 },
      campaign: 'x',
    };
    const { passes, valid, fast, full } = await bothOn(PartnerOrderDto, order);
    expect([passes, valid]).toEqual([true, true]);
    expect(fast).toEqual(full);
    expect(fast).not.toHaveProperty('campaign');
    expect((fast as PartnerOrderDto).items[0]).not.toHaveProperty('colour');
  });

  it.each([
    ['a missing field', { items: [{ article: 'SF-1', size: 'M', quantity: 1 }] }],
    ['a bad item', { partnerOrderId: 'B-1', recipient: { fullName: 'A', phone: '1' }, items: [{ article: 'SF-1' }] }],
    ['an item that is not an object', { partnerOrderId: 'B-1', recipient: { fullName: 'A', phone: '1' }, items: [7] }],
    ['no items', { partnerOrderId: 'B-1', recipient: { fullName: 'A', phone: '1' }, items: [] }],
    ['a nested field of the wrong type', { partnerOrderId: 'B-1', recipient: 'A', items: [] }],
  ])('refuses %s, as class-validator does', async (_name, body) => {
    const { passes, valid } = await bothOn(PartnerOrderDto, body);
    expect([passes, valid]).toEqual([false, false]);
  });

  class Line {
    @IsInt()
    quantity!: number;
  }

  class Conditional {
    @ValidateIf((o: Conditional) => o.kind === 'counted')
    @IsInt()
    count?: number;

    @IsString()
    kind!: string;

    @IsOptional()
    @ValidateNested({ each: true })
    @Type(() => Line)
    lines?: Line[];

    @IsInt({ each: true })
    @IsOptional()
    sizes?: number[];

    @IsDefined()
    tag!: unknown;

    @IsInt({ validateIf: (o: Conditional) => o.kind === 'strict' })
    @IsOptional()
    limit?: unknown;
  }

  it.each([
    [{ tag: 0, kind: 'plain', count: 'not checked' }, true],
    [{ tag: 0, kind: 'counted', count: 'x' }, false],
    [{ tag: 0, kind: 'counted', count: 3 }, true],
    [{ tag: 0, kind: 'k', lines: null }, true],
    [{ tag: 0, kind: 'k', lines: [{ quantity: 1 }, { quantity: 'x' }] }, false],
    [{ tag: 0, kind: 'k', sizes: [1, 2, 'x'] }, false],
    [{ tag: 0, kind: 'k', sizes: [1, 2] }, true],
    [{ kind: 'k' }, false],
    [{ tag: null, kind: 'k' }, false],
    [{ tag: 0, kind: 'k', limit: 'x' }, true],
    [{ tag: 0, kind: 'strict', limit: 'x' }, false],
  ])('follows conditions, optional fields, nested arrays and `each`: %j', async (body, expected) => {
    const { passes, valid } = await bothOn(Conditional, body);
    expect([passes, valid]).toEqual([expected, expected]);
  });

  class Untyped {
    // No @Type: the nested value stays a plain object, a class without rules.
    @ValidateNested()
    @IsOptional()
    meta?: object;
  }

  it.each([
    [{}, true],
    [{ meta: { a: 1 } }, false],
  ])('refuses an object of a class without rules, as forbidUnknownValues does: %j', async (body, expected) => {
    const { passes, valid } = await bothOn(Untyped, body);
    expect([passes, valid]).toEqual([expected, expected]);
    const lenient = await bothOn(Untyped, body, { ...OPTIONS, forbidUnknownValues: false });
    expect([lenient.passes, lenient.valid]).toEqual([true, true]);
  });

  class Awaited {
    @IsInt()
    @Validate(SlowlyTrue)
    quantity!: number;
  }

  it('leaves an option it does not follow, and a rule answered with a promise, to class-validator', async () => {
    const check = new ValidityCheck();
    const line = plainToInstance(Line, { quantity: 1 });
    expect(check.passes(line, OPTIONS)).toBe(true);
    expect(check.passes(line, { ...OPTIONS, skipMissingProperties: true })).toBe(false);
    expect(check.passes(line, { ...OPTIONS, groups: ['a'] })).toBe(false);
    const awaited = await bothOn(Awaited, { quantity: 1 });
    expect([awaited.passes, awaited.valid]).toEqual([false, true]);
  });

  it('agrees with class-validator on every DTO of the service, for generated values', async () => {
    // As the service runs it: class-validator's rules remembered per class.
    cacheValidationMetadata();
    loadDtos(path.resolve(__dirname, '../..'));
    const storage = getMetadataStorage() as unknown as { validationMetadatas: Map<Class | string, unknown> };
    const ofThisSpec = new Set<Class | string>([Line, Conditional, Untyped, Awaited]);
    const classes = [...storage.validationMetadatas.keys()].filter(
      (type): type is Class => typeof type === 'function' && !ofThisSpec.has(type),
    );
    expect(classes.length).toBeGreaterThan(30);
    let passed = 0;
    for (const [index, type] of classes.entries()) {
      const next = random(index + 1);
      for (let round = 0; round < 150; round++) {
        const plain = plainOf(type, next);
        const { passes, valid, fast, full } = await bothOn(type, plain);
        if (passes !== valid)
          throw new Error(`${type.name}: check ${passes}, class-validator ${valid} for ${JSON.stringify(plain)}`);
        if (passes) {
          passed++;
          expect(fast).toEqual(full);
        }
      }
    }
    // Enough of the generated values are valid for the agreement to mean something.
    expect(passed).toBeGreaterThan(300);
  });
});

describe('ValidityCheck and the class-validator it was checked against', () => {
  const CHECKED_AGAINST = '0.15.1';

  it('is still the installed version', () => {
    const installed = jest.requireActual<{ version: string }>('class-validator/package.json').version;
    if (installed === CHECKED_AGAINST) return;
    throw new Error(
      `class-validator is ${installed}; validity-check.ts was checked against ${CHECKED_AGAINST}. It repeats ` +
        "the library's ValidationExecutor without the error tree: re-read execute, performValidations, " +
        'customValidations and nestedValidations for a new kind of rule, option or order of checks, and add ' +
        'what changed to the cases above before setting CHECKED_AGAINST to the new version (or delete ' +
        'ValidityCheck: see its decision record in docs/performance.md).',
    );
  });
});
