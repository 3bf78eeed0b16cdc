import { AppError } from '../errors/app-error';
import { parseJsonBody } from './json-body';

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
    expect(parseJsonBody('{"constructor":"x","comment":"__proto__"}')).toEqual({ constructor: 'x', comment: '__proto__' });
  });

  it('refuses malformed JSON with the contract text and a detail', () => {
    const error = refusalOf('{"email": ');
    expect([error.status, error.message, error.details]).toEqual([400, 'Malformed JSON body', ['body is not valid JSON']]);
  });

  it('refuses a __proto__ key at any depth, also when spelled with escapes', () => {
    for (const text of ['{"__proto__":{"admin":true}}', '{"comment":{"__proto__":{}}}', '{"a":[{"\\u005f_proto__":1}]}']) {
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
});
