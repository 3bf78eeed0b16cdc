import { parse, scan } from 'secure-json-parse';
import { AppError } from '../errors/app-error';
import { ErrorText } from '../errors/error-texts';

const forbiddenKey = {
  proto: 'body must not contain the key "__proto__"',
  constructor: 'body must not contain a "constructor" object with a "prototype" key',
};

/**
 * A request body as JSON, or a 400 that says why not; every 400 carries `details`, so clients
 * handle one shape of error. Keys that would reach an object's prototype are refused rather than
 * dropped: a body that tries it is not one to act on with a piece missing.
 */
export function parseJsonBody(text: string): unknown {
  if (text.length === 0) return {};
  try {
    return parse(text, undefined, { protoAction: 'error', constructorAction: 'error' });
  } catch {
    throw refusal(text);
  }
}

/** Only on the failure path: tells a malformed body from a well-formed one with a forbidden key. */
function refusal(text: string): AppError {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return new AppError(400, ErrorText.malformedJson, ['body is not valid JSON']);
  }
  try {
    scan(value as object, { protoAction: 'error', constructorAction: 'ignore' });
  } catch {
    return AppError.badRequest([forbiddenKey.proto]);
  }
  return AppError.badRequest([forbiddenKey.constructor]);
}
