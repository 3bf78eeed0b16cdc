import { ValidationPipe } from '@nestjs/common';
import { Type } from 'class-transformer';
import { IsArray, IsInt, IsString, ValidateNested } from 'class-validator';
import { Nullable, OptionalNotNull } from './field-decorators';
import { parseJsonBody } from '../http/json-body';
import { QueryInt } from './query-int.decorator';
import { createValidationPipe, flattenValidationErrors } from './validation.pipe';

describe('flattenValidationErrors', () => {
  it('names one problem per field, the type first, and nested fields by their full path', () => {
    const details = flattenValidationErrors([
      {
        property: 'name',
        constraints: {
          maxLength: 'name must be shorter than or equal to 100 characters',
          isString: 'name must be a string',
        },
        children: [],
      },
      {
        property: 'items',
        children: [
          {
            property: '0',
            children: [{ property: 'quantity', constraints: { isInt: 'quantity must be an integer' }, children: [] }],
          },
        ],
      },
    ]);
    expect(details).toEqual(['name must be a string', 'items.0.quantity must be an integer']);
  });
});

class Line {
  @IsString()
  article!: string;
}

class Body {
  @IsString()
  name!: string;

  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => Line)
  lines!: Line[];

  @OptionalNotNull()
  @IsArray()
  @IsInt({ each: true })
  numbers?: number[];
}

const asBody = { type: 'body', metatype: Body } as const;

describe('createValidationPipe', () => {
  const pipe = createValidationPipe();
  afterEach(() => jest.restoreAllMocks());

  it("skips Nest's walks for prototype keys and array gaps on a body the JSON parser found free of both", async () => {
    const strip = jest.spyOn(
      ValidationPipe.prototype as unknown as { stripProtoKeys(v: unknown): void },
      'stripProtoKeys',
    );
    const close = jest.spyOn(
      ValidationPipe.prototype as unknown as { closeArrayGaps(v: unknown): void },
      'closeArrayGaps',
    );
    const value = (await pipe.transform(parseJsonBody('{"name":"a","lines":[{"article":"x"}]}'), asBody)) as Body;
    expect([strip.mock.calls.length, close.mock.calls.length]).toEqual([0, 0]);
    expect(value).toBeInstanceOf(Body);
    expect(value.lines[0]).toBeInstanceOf(Line);
  });

  it('still strips constructor and prototype keys from a body that has them, at any depth', async () => {
    const value = (await pipe.transform(
      parseJsonBody('{"name":"a","constructor":"x","lines":[{"article":"x","prototype":{"y":1}}]}'),
      asBody,
    )) as Body;
    expect(Object.keys(value).sort()).toEqual(['lines', 'name']);
    expect(Object.keys(value.lines[0])).toEqual(['article']);
  });

  it('still closes the gaps of an array in a value the parser did not make', async () => {
    // eslint-disable-next-line no-sparse-arrays
    const value = (await pipe.transform({ name: 'a', lines: [], numbers: [, 1, , 2] }, asBody)) as Body;
    expect(value.numbers).toEqual([1, 2]);
  });

  it("answers a plain body exactly as Nest's own pipe with the same options", async () => {
    const reference = new ValidationPipe({
      transform: true,
      whitelist: true,
      forbidUnknownValues: true,
      validationError: { target: false, value: false },
    });
    const text = '{"name":"a","extra":1,"lines":[{"article":"x","more":2}],"numbers":[3]}';
    const ours = await createValidationPipe('ignore').transform(parseJsonBody(text), { ...asBody, type: 'custom' });
    const theirs: unknown = await reference.transform(JSON.parse(text), asBody);
    expect(JSON.stringify(ours)).toBe(JSON.stringify(theirs));
  });
});

class Patch {
  @OptionalNotNull()
  @IsString()
  name?: string;

  @Nullable()
  @IsString()
  note?: string | null;

  @OptionalNotNull()
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => Line)
  lines?: Line[];
}

describe('createValidationPipe on bodies', () => {
  const strict = createValidationPipe();
  const tolerant = createValidationPipe('ignore');
  const asPatch = { type: 'body', metatype: Patch } as const;
  const asTolerant = { type: 'custom', metatype: Patch } as const;

  it('refuses every property the DTO does not name, at any depth, naming each', async () => {
    await expect(
      strict.transform(parseJsonBody('{"nmae":"a","lines":[{"article":"x","artcle":"y"}],"z":1}'), asPatch),
    ).rejects.toMatchObject({
      details: [
        'property nmae should not exist',
        'property z should not exist',
        'property lines.0.artcle should not exist',
      ],
    });
  });

  it('refuses null for a field that is optional but not nullable, and keeps it where it is nullable', async () => {
    await expect(strict.transform({ name: null }, asPatch)).rejects.toMatchObject({
      details: ['name must be a string'],
    });
    await expect(strict.transform({ lines: null }, asPatch)).rejects.toMatchObject({
      details: ['lines must be an array'],
    });
    expect(await strict.transform({ note: null }, asPatch)).toEqual({ note: null });
    expect(await strict.transform({}, asPatch)).toEqual({});
  });

  it('refuses a body that is null, a list or a bare value, and reads no body as {}', async () => {
    for (const body of [null, [], [{}], 'a', 1, true]) {
      await expect(strict.transform(body, asPatch)).rejects.toMatchObject({
        details: ['Request body must be a JSON object'],
      });
      await expect(tolerant.transform(body, asTolerant)).rejects.toMatchObject({
        details: ['Request body must be a JSON object'],
      });
    }
    expect(await strict.transform(undefined, asPatch)).toEqual({});
  });

  it('a tolerant body drops what the DTO does not name and takes null for absent, a required field failing', async () => {
    const value = await tolerant.transform(
      parseJsonBody('{"name":null,"extra":1,"lines":[{"article":"x","more":2}],"note":null}'),
      asTolerant,
    );
    expect(value).toEqual({ lines: [{ article: 'x' }] });
    await expect(tolerant.transform(parseJsonBody('{"lines":[{"article":null}]}'), asTolerant)).rejects.toMatchObject({
      details: ['lines.0.article must be a string'],
    });
  });

  it('the global pipe leaves a tolerant body to its own pipe', async () => {
    const body = { extra: 1 };
    expect(await strict.transform(body, asTolerant)).toBe(body);
  });
});

class PageQuery {
  @QueryInt({ min: 1, max: 200, default: 50 })
  limit: number = 50;
}

class TagsQuery {
  @OptionalNotNull()
  @IsArray()
  @IsString({ each: true })
  tag?: string[];
}

describe('createValidationPipe on queries', () => {
  const asQuery = <T>(metatype: new () => T) => ({ type: 'query', metatype }) as const;

  it('answers a repeated query string as the first time, each time with a DTO of its own', async () => {
    const pipe = createValidationPipe();
    const answers: PageQuery[] = [];
    for (let i = 0; i < 3; i++) {
      answers.push((await pipe.transform({ limit: '7' }, asQuery(PageQuery))) as PageQuery);
      answers[i].limit += 100;
    }
    expect(answers.map((answer) => answer.limit)).toEqual([107, 107, 107]);
    expect(answers[2]).toBeInstanceOf(PageQuery);
    expect(await pipe.transform({ limit: '8' }, asQuery(PageQuery))).toEqual({ limit: 8 });
    expect(await pipe.transform({}, asQuery(PageQuery))).toEqual({ limit: 50 });
  });

  it('refuses a bad query string every time it comes', async () => {
    const pipe = createValidationPipe();
    for (let i = 0; i < 2; i++) {
      await expect(pipe.transform({ limit: '0x10' }, asQuery(PageQuery))).rejects.toMatchObject({
        details: ['limit must be an integer from 1–200'],
      });
    }
  });

  it('refuses a query text holding NUL, in any parameter, a list or a parameter read alone', async () => {
    const pipe = createValidationPipe();
    const refused = { details: ['tag must not contain NUL characters'] };
    await expect(pipe.transform({ tag: ['a', 'b\u0000'] }, asQuery(TagsQuery))).rejects.toMatchObject(refused);
    await expect(pipe.transform({ tag: 'x'.repeat(600) + '\u0000' }, asQuery(TagsQuery))).rejects.toMatchObject({
      details: ['tag must not contain NUL characters', 'tag must be an array'],
    });
    await expect(pipe.transform('\u0000', { type: 'query', metatype: String, data: 'tag' })).rejects.toMatchObject(
      refused,
    );
    expect(await pipe.transform({ tag: ['a', 'b'] }, asQuery(TagsQuery))).toEqual({ tag: ['a', 'b'] });
  });

  it("lists a NUL with the query's other problems", async () => {
    class Both {
      @QueryInt({ min: 1, max: 200, default: 50 })
      limit: number = 50;

      @OptionalNotNull()
      @IsString()
      note?: string;
    }
    await expect(
      createValidationPipe().transform({ limit: '0', note: 'a\u0000' }, asQuery(Both)),
    ).rejects.toMatchObject({
      details: ['note must not contain NUL characters', 'limit must be an integer from 1–200'],
    });
  });

  it('hands out a fresh array each time for a query DTO with one', async () => {
    const pipe = createValidationPipe();
    const first = (await pipe.transform({ tag: ['a', 'b'] }, asQuery(TagsQuery))) as TagsQuery;
    first.tag!.push('c');
    expect(await pipe.transform({ tag: ['a', 'b'] }, asQuery(TagsQuery))).toEqual({ tag: ['a', 'b'] });
  });
});

describe('createValidationPipe and the @nestjs/common it was checked against', () => {
  const CHECKED_AGAINST = '11.2.10';

  it('is still the installed version', () => {
    const installed = jest.requireActual<{ version: string }>('@nestjs/common/package.json').version;
    if (installed === CHECKED_AGAINST) return;
    throw new Error(
      `@nestjs/common is ${installed}; validation.pipe.ts was checked against ${CHECKED_AGAINST}. It overrides ` +
        "protected methods of Nest's ValidationPipe: re-check that transform still calls stripProtoKeys and " +
        'closeArrayGaps on the body, that stripProtoKeys deletes no key but "__proto__", "prototype" and ' +
        '"constructor" (isPlainJsonBody in json-body.ts promises a body has none) and closeArrayGaps changes ' +
        'nothing but the gaps of sparse arrays, and that transformPrimitive only converts path and query text. ' +
        'Then set CHECKED_AGAINST to the new version.',
    );
  });
});
