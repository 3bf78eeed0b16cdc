import { ArgumentMetadata, Type, ValidationError, ValidationPipe, type ValidationPipeOptions } from '@nestjs/common';
import { AppError } from '../errors/app-error';
import { ErrorText } from '../errors/error-texts';
import { isPlainJsonBody } from '../http/json-body';
import { QueryVerdicts } from './query-verdicts';
import { cacheValidationMetadata } from './validation-metadata-cache';

// A field of the wrong type fails its length and range checks too; naming the type is the useful part.
const TYPE_CHECKS = ['isDefined', 'isString', 'isInt', 'isNumber', 'isBoolean', 'isArray', 'isObject', 'isEmail'];

function mainProblem(constraints: Record<string, string>): string | undefined {
  const key = TYPE_CHECKS.find((check) => check in constraints) ?? Object.keys(constraints)[0];
  return key === undefined ? undefined : constraints[key];
}

/** One problem per field, every field, nested ones with their path (`items.0.quantity must be …`). */
export function flattenValidationErrors(errors: ValidationError[], prefix = ''): string[] {
  const messages: string[] = [];
  for (const error of errors) {
    const path = prefix ? `${prefix}.${error.property}` : error.property;
    const message = mainProblem(error.constraints ?? {});
    if (message !== undefined) messages.push(prefix ? message.replace(error.property, path) : message);
    if (error.children?.length) messages.push(...flattenValidationErrors(error.children, path));
  }
  return messages;
}

/**
 * Nest's pipe would turn a path or query text into a number before the route's own pipe sees it
 * (`Number('0x1')` is 1); the strict parsers need the text as it arrived.
 *
 * Before a body is validated, Nest's pipe walks it twice more: to delete `constructor` and
 * `prototype` keys (`__proto__` too) and to close the gaps of sparse arrays. A body our JSON
 * parser produced and found free of such keys (isPlainJsonBody) has nothing either walk would
 * change, JSON having no sparse arrays (docs/performance.md, PERF-8).
 */
class JsonValidationPipe extends ValidationPipe {
  protected override transformPrimitive(value: unknown): unknown {
    return value;
  }

  protected override stripProtoKeys(value: unknown): void {
    if (!isPlainJsonBody(value)) super.stripProtoKeys(value);
  }

  protected override closeArrayGaps(value: unknown): void {
    if (!isPlainJsonBody(value)) super.closeArrayGaps(value);
  }
}

/**
 * A query DTO is validated once per distinct query string (QueryVerdicts). A query text holding
 * NUL is refused first, whatever the parameter: PostgreSQL cannot store or compare one (a body's
 * texts are checked by the JSON parser), and a remembered query never holds one. A parameter the
 * DTO does not name is dropped, not refused: links and caches add their own.
 */
class QueryValidationPipe extends JsonValidationPipe {
  private readonly queries = new QueryVerdicts();

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const { metatype } = metadata;
    const key = metatype ? this.queries.keyOf(value) : undefined;
    if (key === undefined) return this.transformQuery(value, metadata);
    const known = this.queries.recall(metatype as Type<object>, key);
    if (known !== undefined) return known;
    const dto = await this.transformQuery(value, metadata);
    this.queries.remember(metatype as Type<object>, key, dto);
    return dto;
  }

  /** A query validated, its NULs refused with every other problem it has. */
  private async transformQuery(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const nuls = nulProblems(value, metadata.data ?? 'query');
    if (!nuls.length) return super.transform(value, metadata);
    const others = await super.transform(value, metadata).then(
      () => [],
      (error: unknown) => (error instanceof AppError ? (error.details ?? []) : []),
    );
    throw AppError.badRequest([...nuls, ...others]);
  }
}

/**
 * Bodies: a JSON object or nothing (no body reads as `{}`); `null`, an array or a bare value in
 * its place is refused rather than taken for an empty object. Queries go to their own pipe.
 */
class BodyValidationPipe extends JsonValidationPipe {
  constructor(
    options: ValidationPipeOptions,
    private readonly queries: QueryValidationPipe | undefined,
    private readonly nullIsAbsent: boolean,
  ) {
    super(options);
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type === 'query' && this.queries) return this.queries.transform(value, metadata);
    if (value === undefined || metadata.type === 'param' || !this.toValidate(metadata))
      return super.transform(value, metadata);
    if (!isJsonObject(value)) throw AppError.badRequest([ErrorText.bodyNotObject]);
    if (this.nullIsAbsent) dropNullProperties(value);
    return super.transform(value, metadata);
  }
}

/**
 * What becomes of a body property the route's DTO does not name, at any depth: `refuse` (400 naming
 * each) is every route's but the storefront's, whose storefronts send more than we read and `null`
 * for what they leave empty (TolerantBody): `ignore` drops such properties and takes `null` for
 * absent.
 */
export type UnknownProperties = 'refuse' | 'ignore';

/** What NULs a query's parameters hold (an object of texts or lists of texts, or one parameter's text). */
function nulProblems(value: unknown, name: string): string[] {
  if (typeof value === 'string') return value.includes('\u0000') ? [ErrorText.nulInText(name)] : [];
  if (Array.isArray(value))
    return value.some((item) => nulProblems(item, name).length) ? [ErrorText.nulInText(name)] : [];
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([field, item]) =>
    nulProblems(item, name === 'query' ? field : `${name}.${field}`),
  );
}

/**
 * Deletes every property whose value is `null`, at any depth (a `null` in a list stays, and fails as
 * the list's entry): a required field then fails as absent, an optional one is absent.
 */
function dropNullProperties(root: object): void {
  const stack: object[] = [root];
  while (stack.length > 0) {
    const node = stack.pop() as Record<string, unknown>;
    // A list's entries are walked but never deleted: a hole would vanish when the list is copied.
    const isList = Array.isArray(node);
    for (const key of Object.keys(node)) {
      const child = node[key];
      if (child === null && !isList) delete node[key];
      else if (child !== null && typeof child === 'object') stack.push(child);
    }
  }
}

const isJsonObject = (value: unknown): value is object =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const BASE_OPTIONS: ValidationPipeOptions = {
  transform: true,
  whitelist: true,
  forbidUnknownValues: true,
  validationError: { target: false, value: false },
  exceptionFactory: (errors) => {
    const details = flattenValidationErrors(errors);
    return AppError.badRequest(details.length ? details : [ErrorText.bodyNotObject]);
  },
};

export function createValidationPipe(unknownProperties: UnknownProperties = 'refuse'): ValidationPipe {
  cacheValidationMetadata();
  if (unknownProperties === 'ignore')
    return new BodyValidationPipe({ ...BASE_OPTIONS, validateCustomDecorators: true }, undefined, true);
  return new BodyValidationPipe(
    { ...BASE_OPTIONS, forbidNonWhitelisted: true },
    new QueryValidationPipe(BASE_OPTIONS),
    false,
  );
}
