import { AppError } from '../errors/app-error';
import { isPlainJsonBody, MAX_BODY_DEPTH, parseJsonBody } from './json-body';

function refusalOf(text: string): AppError {
  try {
    parseJsonBody(text);
  } catch (error) {
    return error as AppError;
  }
  throw new Error(`accepted: ${text}`);
}

describe('parseJsonBody', () => {
  it('reads JSON, and an empty body as {}', () => {
    expect(parseJsonBody('{"a":[1,{"b":null}]}')).toEqual({ a: [1, { b: null }] });
    expect(parseJsonBody('')).toEqual({});
    expect(parseJsonBody('"text"')).toBe('text');
  });

  it('keeps a "constructor" key that is not an object with a prototype', () => {
    expect(parseJsonBody('{"constructor":"x","comment":"__proto__"}')).toEqual({
      constructor: 'x',
      comment: '__proto__',
    });
  });

  it('refuses malformed JSON with the contract text and a detail', () => {
    const error = refusalOf('{"email": ');
    expect([error.status, error.message, error.details]).toEqual([
      400,
      'Malformed JSON body',
      ['body is not valid JSON'],
    ]);
  });

  it('refuses a __proto__ key at any depth, also when spelled with escapes', () => {
    for (const text of [
      '{"__proto__":{"admin":true}}',
      '{"comment":{"__proto__":{}}}',
      '{"a":[{"\\u005f_proto__":1}]}',
    ]) {
      const error = refusalOf(text);
      expect([error.status, error.message, error.details]).toEqual([
        400,
        'body must not contain the key "__proto__"',
        ['body must not contain the key "__proto__"'],
      ]);
    }
  });

  it('refuses a constructor object with a prototype key', () => {
    const error = refusalOf('{"items":[{"constructor":{"prototype":{"x":1}}}]}');
    expect(error.details).toEqual(['body must not contain a "constructor" object with a "prototype" key']);
    expect(error.status).toBe(400);
  });

  it('refuses nesting beyond the limit, however deep, and keeps the limit itself', () => {
    const nested = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);
    expect(() => parseJsonBody(nested(MAX_BODY_DEPTH))).not.toThrow();
    for (const text of [
      nested(MAX_BODY_DEPTH + 1),
      nested(100_000),
      '{"a":'.repeat(50_000) + '1' + '}'.repeat(50_000),
    ]) {
      const error = refusalOf(text);
      expect([error.status, error.details]).toEqual([
        400,
        [`body must not be nested more than ${MAX_BODY_DEPTH} levels deep`],
      ]);
    }
  });

  it('refuses nesting beyond the limit in a body with nothing else to check, and in one with escapes', () => {
    const deep = '{"a":'.repeat(MAX_BODY_DEPTH + 1) + '1' + '}'.repeat(MAX_BODY_DEPTH + 1);
    expect(refusalOf(deep).status).toBe(400);
    expect(refusalOf(deep.replace('"a"', '"\\u0061"')).status).toBe(400);
    const limit = '{"a":'.repeat(MAX_BODY_DEPTH) + '1' + '}'.repeat(MAX_BODY_DEPTH);
    expect(() => parseJsonBody(limit)).not.toThrow();
  });

  it('refuses NUL in any string or key, naming where', () => {
    expect(refusalOf('{"recipient":{"fullName":"a\\u0000b"}}').details).toEqual([
      'recipient.fullName must not contain NUL characters',
    ]);
    expect(refusalOf('{"items":[{"article":"\\u0000"}]}').details).toEqual([
      'items.0.article must not contain NUL characters',
    ]);
    expect(refusalOf('{"a\\u0000":1}').details).toEqual(['body must not contain NUL characters in its keys']);
    expect(refusalOf('"\\u0000"').status).toBe(400);
  });
});

describe('isPlainJsonBody', () => {
  it('holds for what parseJsonBody returned with no constructor or prototype key at any depth', () => {
    expect(isPlainJsonBody(parseJsonBody('{"a":[1,{"b":"constructor"}],"c":{"d":"prototype"}}'))).toBe(true);
    expect(isPlainJsonBody(parseJsonBody('[{"a":1}]'))).toBe(true);
    expect(isPlainJsonBody(parseJsonBody(''))).toBe(true);
  });

  it('does not hold once such a key is anywhere in the body, so the validation pipe strips it', () => {
    for (const text of [
      '{"constructor":"x"}',
      '{"a":{"prototype":1}}',
      '{"a":[{"b":{"constructor":{}}}]}',
      '[{"prototype":null}]',
      // Spelled with escapes, the key is still the one the pipe strips.
      '{"a":{"\\u0063onstructor":1}}',
      '{"prot\\u006ftype":1}',
    ])
      expect([text, isPlainJsonBody(parseJsonBody(text))]).toEqual([text, false]);
  });

  it('does not hold for a value the parser did not make, however plain', () => {
    expect(isPlainJsonBody({ a: 1 })).toBe(false);
    expect(isPlainJsonBody(JSON.parse('{"a":1}'))).toBe(false);
    expect(isPlainJsonBody(parseJsonBody('"text"'))).toBe(false);
    expect(isPlainJsonBody(null)).toBe(false);
  });
});

describe('parseJsonBody and the secure-json-parse it was checked against', () => {
  const CHECKED_AGAINST = '4.1.1';

  it('is still the installed version', () => {
    const installed = jest.requireActual<{ version: string }>('secure-json-parse/package.json').version;
    if (installed === CHECKED_AGAINST) return;
    throw new Error(
      `secure-json-parse is ${installed}; json-body.ts was checked against ${CHECKED_AGAINST}. Re-check that parse ` +
        'with protoAction and constructorAction "error" still refuses a "__proto__" key also when spelled with ' +
        'escapes (the fast path without a walk relies on it) and a "constructor" object with a "prototype" key, ' +
        'and nothing else JSON.parse accepts (refusal() tells the two apart with scan and calls any other a ' +
        '"constructor" refusal). Then set CHECKED_AGAINST to the new version.',
    );
  });
});

describe('parseJsonBody and text that is not Unicode', () => {
  it('refuses a lone surrogate in a text or a key, naming where it is, and keeps a pair', () => {
    expect(() => parseJsonBody('{"recipient":{"email":"\\ud800"}}')).toThrow(
      expect.objectContaining({ details: ['recipient.email must be valid Unicode text (it holds a lone surrogate)'] }),
    );
    expect(() => parseJsonBody('{"items":[{"size":"M\\udc00"}]}')).toThrow(
      expect.objectContaining({ details: ['items.0.size must be valid Unicode text (it holds a lone surrogate)'] }),
    );
    expect(() => parseJsonBody('{"a":{"\\ud83d":1}}')).toThrow(
      expect.objectContaining({
        details: ['a must have keys of valid Unicode text (one holds a lone surrogate)'],
      }),
    );
    expect(parseJsonBody('{"name":"\\ud83d\\ude00"}')).toEqual({ name: '\u{1F600}' });
  });

  it('reads bytes that are not UTF-8 as U+FFFD, never as a surrogate', () => {
    const text = Buffer.from([0x22, 0xed, 0xa0, 0x80, 0x22]).toString('utf8');
    expect(parseJsonBody(text)).toBe('\ufffd\ufffd\ufffd');
  });
});
