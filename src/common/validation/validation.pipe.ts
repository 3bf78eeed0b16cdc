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
      return type === 'query' ? this.transformQuery(value, metadata) : super.transform(value, metadata);
    }
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
