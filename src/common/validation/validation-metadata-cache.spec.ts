import {
  getMetadataStorage,
  IsInt,
  IsString,
  MaxLength,
  registerDecorator,
  validate,
  ValidationArguments,
} from 'class-validator';
import { cacheValidationMetadata } from './validation-metadata-cache';

class Base {
  @IsString()
  name!: unknown;
}

class Child extends Base {
  @IsInt()
  count!: unknown;
}

class Grouped {
  @MaxLength(3, { groups: ['short'] })
  @IsString()
  text!: unknown;
}

class Late {
  @IsString()
  value: unknown = 'anything';
}

const properties = async (object: object, groups?: string[]) =>
  (await validate(object, { groups })).map((error) => error.property).sort();

describe('cacheValidationMetadata', () => {
  beforeAll(() => cacheValidationMetadata());

  it("keeps a subclass's inherited rules, each time it is validated", async () => {
    for (let i = 0; i < 3; i++) {
      expect(await properties(Object.assign(new Child(), { name: 1, count: 'x' }))).toEqual(['count', 'name']);
      expect(await properties(Object.assign(new Base(), { name: 1, count: 'x' }))).toEqual(['name']);
    }
  });

  it('applies a rule registered after the class was validated once', async () => {
    expect(await properties(new Late())).toEqual([]);
    registerDecorator({
      target: Late,
      propertyName: 'value',
      validator: { validate: (value: unknown, _args?: ValidationArguments) => value === 'expected' },
    });
    expect(await properties(new Late())).toEqual(['value']);
  });

  it('answers a lookup by groups apart from one without', async () => {
    const long = Object.assign(new Grouped(), { text: 'longer' });
    expect(await properties(long)).toEqual(['text']);
    expect(await properties(long, ['other'])).toEqual([]);
    expect(await properties(long, ['short'])).toEqual(['text']);
    expect(await properties(long)).toEqual(['text']);
  });

  it('answers a lookup with strictGroups or always apart from one without', async () => {
    const long = Object.assign(new Grouped(), { text: 'longer' });
    const failing = async (options: { strictGroups?: boolean; always?: boolean }) =>
      (await validate(long, options)).map((error) => Object.keys(error.constraints ?? {}).sort());
    for (let i = 0; i < 2; i++) {
      expect(await failing({})).toEqual([['maxLength']]);
      // strictGroups leaves out the rules that have groups when none are asked for.
      expect(await failing({ strictGroups: true })).toEqual([]);
      expect(await failing({ strictGroups: true, always: true })).toEqual([]);
      expect(await failing({ always: true })).toEqual([['maxLength']]);
    }
  });

  it("groups a class's rules by property once, and again after a rule is registered", () => {
    const storage = getMetadataStorage();
    const rules = () => storage.getTargetValidationMetadatas(Child, '', false, false);
    const first = storage.groupByPropertyName(rules());
    expect(Object.keys(first).sort()).toEqual(['count', 'name']);
    expect(storage.groupByPropertyName(rules())).toBe(first);
    registerDecorator({ target: Child, propertyName: 'extra', validator: { validate: () => true } });
    const after = storage.groupByPropertyName(rules());
    expect(after).not.toBe(first);
    expect(Object.keys(after).sort()).toEqual(['count', 'extra', 'name']);
  });
});

describe('cacheValidationMetadata and the class-validator it was checked against', () => {
  const CHECKED_AGAINST = '0.15.1';

  it('is still the installed version', () => {
    const installed = jest.requireActual<{ version: string }>('class-validator/package.json').version;
    if (installed === CHECKED_AGAINST) return;
    throw new Error(
      `class-validator is ${installed}; validation-metadata-cache.ts was checked against ${CHECKED_AGAINST}. ` +
        "It replaces three methods of the library's MetadataStorage: re-check that a rule is still registered " +
        'only through addValidationMetadata, that getTargetValidationMetadatas still takes ' +
        '(target, schema, always, strictGroups, groups) and depends on nothing else, and that ' +
        'groupByPropertyName still gets the array that lookup returned. Then set CHECKED_AGAINST to the new version.',
    );
  });
});
