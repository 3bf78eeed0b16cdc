import { ArgumentMetadata, Type, ValidationError, ValidationPipe } from '@nestjs/common';
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
 *
 * A query DTO is validated once per distinct query string (QueryVerdicts). A query text holding
 * NUL is refused first, whatever the parameter: PostgreSQL cannot store or compare one (a body's
 * texts are checked by the JSON parser), and a remembered query never holds one.
 */
class StrictValidationPipe extends ValidationPipe {
  private readonly queries = new QueryVerdicts();

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const { type, metatype } = metadata;
    const key = type === 'query' && metatype ? this.queries.keyOf(value) : undefined;
    if (key === undefined) {
      if (type === 'query') refuseNul(value, metadata.data ?? 'query');
      return super.transform(value, metadata);
    }
    const known = this.queries.recall(metatype as Type<object>, key);
    if (known !== undefined) return known;
    refuseNul(value, metadata.data ?? 'query');
    const dto = (await super.transform(value, metadata)) as unknown;
    this.queries.remember(metatype as Type<object>, key, dto);
    return dto;
  }

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

/** A query's parameters (an object of texts or lists of texts, or one parameter's text) with no NUL in them. */
function refuseNul(value: unknown, name: string): void {
  if (typeof value === 'string') {
    if (value.includes('\u0000')) throw AppError.badRequest([ErrorText.nulInText(name)]);
  } else if (Array.isArray(value)) {
    for (const item of value) refuseNul(item, name);
  } else if (value !== null && typeof value === 'object') {
    for (const [field, item] of Object.entries(value)) refuseNul(item, metadataPath(name, field));
  }
}

const metadataPath = (name: string, field: string) => (name === 'query' ? field : `${name}.${field}`);

export function createValidationPipe(): ValidationPipe {
  cacheValidationMetadata();
  return new StrictValidationPipe({
    transform: true,
    whitelist: true,
    forbidUnknownValues: true,
    validationError: { target: false, value: false },
    exceptionFactory: (errors) => {
      const details = flattenValidationErrors(errors);
      return AppError.badRequest(details.length ? details : ['Request body must be a JSON object']);
    },
  });
}
