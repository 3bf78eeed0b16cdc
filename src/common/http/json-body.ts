import { parse, scan } from 'secure-json-parse';
import { AppError } from '../errors/app-error';
import { ErrorText } from '../errors/error-texts';

/** Deeper than any body of the API; validation recurses per level, so this bounds its stack. */
export const MAX_BODY_DEPTH = 32;

/**
 * A request body as JSON, or a 400 that says why not; every 400 carries `details`, so clients
 * handle one shape of error. Keys that would reach an object's prototype are refused rather than
 * dropped: a body that tries it is not one to act on with a piece missing. So are bodies nested
 * beyond MAX_BODY_DEPTH, strings holding NUL, which PostgreSQL's text cannot store, and strings
 * that are not Unicode (a lone surrogate, as a storefront writes when it cuts a text inside an
 * emoji): PostgreSQL cannot store those either, and the validators' e-mail check throws on them.
 */
export function parseJsonBody(text: string): unknown {
  if (text.length === 0) return remember({});
  let value: unknown;
  try {
    value = parse(text, undefined, { protoAction: 'error', constructorAction: 'error' });
  } catch {
    throw refusal(text);
  }
  if (!mayHoldForbiddenText(text)) {
    if (deeperThanLimit(value)) throw AppError.badRequest([ErrorText.nestedTooDeep(MAX_BODY_DEPTH)]);
    return remember(value);
  }
  const shape = shapeOf(value);
  if (shape.problem) throw AppError.badRequest([shape.problem]);
  return shape.prototypeKeys ? value : remember(value);
}

/**
 * JSON can write NUL and a lone surrogate only as an escape (`\u0000`, `\ud800`: bytes that are
 * not UTF-8 decode as U+FFFD), and a key spelled with escapes holds `\u` too: a text with neither
 * `\u` nor the words `constructor` and `prototype` holds no NUL, no lone surrogate and no key the
 * validation pipe would strip, so only its depth needs a walk, and one without paths.
 */
function mayHoldForbiddenText(text: string): boolean {
  return text.includes('\\u') || text.includes('constructor') || text.includes('prototype');
}

function deeperThanLimit(root: unknown): boolean {
  const nodes: unknown[] = [root];
  const depths: number[] = [0];
  while (nodes.length > 0) {
    const node = nodes.pop();
    const depth = depths.pop()!;
    if (node === null || typeof node !== 'object') continue;
    if (depth >= MAX_BODY_DEPTH) return true;
    for (const child of Object.values(node)) {
      if (child !== null && typeof child === 'object') {
        nodes.push(child);
        depths.push(depth + 1);
      }
    }
  }
  return false;
}

const plainBodies = new WeakSet<object>();

function remember(value: unknown): unknown {
  if (typeof value === 'object' && value !== null) plainBodies.add(value);
  return value;
}

/**
 * Whether `value` is a body as parseJsonBody returned it, holding no key named `constructor` or
 * `prototype` at any depth (`__proto__` is refused). The validation pipe then skips its own walks
 * for such keys and for sparse arrays, which JSON cannot express (validation.pipe.ts).
 */
export function isPlainJsonBody(value: unknown): boolean {
  return typeof value === 'object' && value !== null && plainBodies.has(value);
}

const CHARSET = /;\s*charset\s*=\s*"?([^";\s]*)"?/i;

/** Bodies are UTF-8 (contract, conventions): a body declared in another charset is not read as if it were. */
export function assertUtf8(contentType: string | undefined): void {
  const charset = contentType ? CHARSET.exec(contentType)?.[1] : undefined;
  if (charset !== undefined && !/^utf-?8$/i.test(charset)) {
    throw AppError.unsupportedMediaType([ErrorText.unsupportedCharset(charset)]);
  }
}

/** In a `u` pattern a pair of surrogates is one code point, so this finds only a surrogate alone. */
const LONE_SURROGATE = /\p{Surrogate}/u;

/**
 * One walk over the parsed body, depth-first with its own stack (never the call stack), that
 * stops at the first level past the limit, and notes keys the validation pipe strips.
 */
function shapeOf(root: unknown): { problem?: string; prototypeKeys: boolean } {
  let prototypeKeys = false;
  const stack: Array<{ node: unknown; path: string; depth: number }> = [{ node: root, path: 'body', depth: 0 }];
  while (stack.length > 0) {
    const { node, path, depth } = stack.pop()!;
    if (typeof node === 'string') {
      if (node.includes('\u0000')) return { problem: ErrorText.nulInText(path), prototypeKeys };
      if (LONE_SURROGATE.test(node)) return { problem: ErrorText.notUnicode(path), prototypeKeys };
      continue;
    }
    if (node === null || typeof node !== 'object') continue;
    if (depth >= MAX_BODY_DEPTH) return { problem: ErrorText.nestedTooDeep(MAX_BODY_DEPTH), prototypeKeys };
    for (const [key, child] of Object.entries(node)) {
      if (key.includes('\u0000')) return { problem: ErrorText.nulInKeys(path), prototypeKeys };
      if (LONE_SURROGATE.test(key)) return { problem: ErrorText.notUnicodeInKeys(path), prototypeKeys };
      if (key === 'constructor' || key === 'prototype') prototypeKeys = true;
      stack.push({ node: child, path: path === 'body' ? key : `${path}.${key}`, depth: depth + 1 });
    }
  }
  return { prototypeKeys };
}

/** Only on the failure path: tells a malformed body from a well-formed one with a forbidden key. */
function refusal(text: string): AppError {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return AppError.badRequestText(ErrorText.malformedJson, [ErrorText.notJson]);
  }
  try {
    scan(value as object, { protoAction: 'error', constructorAction: 'ignore' });
  } catch {
    return AppError.badRequest([ErrorText.protoKey]);
  }
  return AppError.badRequest([ErrorText.constructorPrototype]);
}
