import { ValidationPipe } from '@nestjs/common';
import { Type } from 'class-transformer';
import { IsArray, IsInt, IsOptional, IsString, ValidateNested } from 'class-validator';
import { parseJsonBody } from '../http/json-body';
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

  @IsOptional()
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
    const ours = await pipe.transform(parseJsonBody(text), asBody);
    const theirs: unknown = await reference.transform(JSON.parse(text), asBody);
    expect(JSON.stringify(ours)).toBe(JSON.stringify(theirs));
  });
});
