import type { OpenAPIObject } from '@nestjs/swagger';
import { getMetadataStorage } from 'class-validator';

type SchemaObject = Exclude<NonNullable<NonNullable<OpenAPIObject['components']>['schemas']>[string], { $ref: string }>;

/** What class-validator keeps of one decorator (its ValidationMetadata, of which the package exports no type). */
interface ValidationMetadata {
  name?: string;
  propertyName: string;
  constraints?: unknown[];
  each?: boolean;
}

/** What one of class-validator's checks says of the value it checks, in JSON Schema. */
type Rule = (schema: SchemaObject, constraints: unknown[]) => void;

const asString = (schema: SchemaObject, format: string) => {
  schema.type = 'string';
  schema.format ??= format;
};

/**
 * The checks the DTOs use, as the document can say them. A check not listed here (a conditional,
 * a nested class, a rule of our own such as isIpOrCidr) is said by the property's own
 * ApiProperty, or not at all.
 */
const RULES: Record<string, Rule> = {
  isInt: (s) => void (s.type = 'integer'),
  // A TypeScript union (`string | null`) reaches the document as an object: the check knows better.
  isString: (s) => void (s.type = 'string'),
  isBoolean: (s) => void (s.type = 'boolean'),
  min: (s, [min]) => void (s.minimum = Math.max(s.minimum ?? -Infinity, min as number)),
  max: (s, [max]) => void (s.maximum = Math.min(s.maximum ?? Infinity, max as number)),
  minLength: (s, [min]) => void (s.minLength = min as number),
  maxLength: (s, [max]) => void (s.maxLength = max as number),
  isLength: (s, [min, max]) => {
    s.minLength = min as number;
    if (max !== undefined) s.maxLength = max as number;
  },
  arrayMinSize: (s, [min]) => void (s.minItems = min as number),
  arrayMaxSize: (s, [max]) => void (s.maxItems = max as number),
  // What the check takes, and only that: an enum the decorator wrote wider loses the refused values.
  isIn: (s, [allowed]) => {
    const taken = allowed as unknown[];
    s.enum = s.enum ? s.enum.filter((value: unknown) => taken.includes(value)) : [...taken];
  },
  notEquals: (s, [refused]) => void (s.not = { enum: [refused] }),
  matches: (s, [pattern]) => {
    // JSON Schema patterns have no flags: one that needs them is left to the property's description.
    if (pattern instanceof RegExp && pattern.flags.replace('u', '') === '') s.pattern = pattern.source;
  },
  isEmail: (s) => asString(s, 'email'),
  isUrl: (s) => asString(s, 'uri'),
  // ISO 8601 takes a date alone and a time without its offset, which date-time (RFC 3339) does not.
  isIso8601: (s) => void (s.type = 'string'),
  isRfc3339DateTime: (s) => asString(s, 'date-time'),
};

/** What DTO classes add to their schema as a whole (SchemaRule): rules across fields. */
const CLASS_RULES = new Map<abstract new () => unknown, Partial<SchemaObject>>();

/**
 * A rule across a DTO's fields that the service enforces and OpenAPI can say, such as a oneOf
 * between two ways of asking: added to the class's schema as is (describeValidationRules).
 */
export const SchemaRule =
  (rule: Partial<SchemaObject>): ClassDecorator =>
  (target) =>
    void CLASS_RULES.set(target as unknown as abstract new () => unknown, {
      ...CLASS_RULES.get(target as never),
      ...rule,
    });

/** The schema a rule applies to: the property's, or its items' for a rule on each element. */
function targetOf(property: SchemaObject, meta: ValidationMetadata): SchemaObject | undefined {
  if (!meta.each) return property;
  if (property.type !== 'array' || !property.items || '$ref' in property.items) return undefined;
  return property.items;
}

/**
 * Says in the document every rule the validation pipe enforces on a request body or query, as
 * class-validator's metadata holds them (contract §20: a client generated from the document
 * sends what the service takes): integer types, bounds, lengths, sizes, enums, patterns and
 * formats, on each DTO's schema by its class name. What Nest's ApiProperty said is kept unless a
 * rule is stricter; then each class's SchemaRule. Query parameters come from QueryInt and the
 * DTO's own ApiProperty.
 */
export function describeValidationRules(document: OpenAPIObject): OpenAPIObject {
  const schemas = document.components?.schemas ?? {};
  const storage = getMetadataStorage();
  const targets = (storage as unknown as { validationMetadatas: Map<new () => unknown, unknown> }).validationMetadatas;
  for (const target of targets.keys()) {
    const schema = schemas[target.name];
    if (!schema || '$ref' in schema || !schema.properties) continue;
    // With what the class inherits: PartialType and OmitType make classes between a DTO and its base.
    const metas = storage.getTargetValidationMetadatas(target, '', true, false) as ValidationMetadata[];
    for (const meta of metas) {
      const rule = meta.name ? RULES[meta.name] : undefined;
      const property = schema.properties[meta.propertyName];
      if (!rule || !property || '$ref' in property || property.allOf) continue;
      const applied = targetOf(property, meta);
      if (applied) rule(applied, meta.constraints ?? []);
    }
  }
  for (const [target, rule] of CLASS_RULES) {
    const schema = schemas[target.name];
    if (schema && !('$ref' in schema)) Object.assign(schema, rule);
  }
  return document;
}
