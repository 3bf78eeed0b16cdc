import type { OpenAPIObject } from '@nestjs/swagger';
import { TOLERANT_BODY_EXTENSION } from './tolerant-body.decorator';

type Node = NonNullable<NonNullable<OpenAPIObject['components']>['schemas']>[string];
const PREFIX = '#/components/schemas/';

/** The component schemas a schema names, at any depth (through properties, items and combinators). */
function namedBy(schema: Node | undefined, schemas: Record<string, Node>, found: Set<string>): void {
  if (!schema) return;
  if ('$ref' in schema) {
    const name = schema.$ref.startsWith(PREFIX) ? schema.$ref.slice(PREFIX.length) : undefined;
    if (name === undefined || found.has(name)) return;
    found.add(name);
    return namedBy(schemas[name], schemas, found);
  }
  for (const part of [...(schema.allOf ?? []), ...(schema.oneOf ?? []), ...(schema.anyOf ?? [])])
    namedBy(part, schemas, found);
  namedBy(schema.items, schemas, found);
  for (const property of Object.values(schema.properties ?? {})) namedBy(property, schemas, found);
}

/**
 * Says in the document what the validation pipe does: a request body's DTO schemas refuse a
 * property they do not list (`additionalProperties: false`), except those a TolerantBody route
 * takes, which ignore one. A schema that both kinds of route take (the order's recipient and
 * delivery) is left open, since one schema cannot say both; its strict routes still refuse.
 */
export function describeStrictBodies(document: OpenAPIObject): OpenAPIObject {
  const schemas = document.components?.schemas ?? {};
  const strict = new Set<string>();
  const tolerant = new Set<string>();
  for (const item of Object.values(document.paths)) {
    for (const operation of [item.put, item.post, item.delete, item.patch]) {
      const body = operation?.requestBody;
      if (!body || '$ref' in body) continue;
      const taken = (operation as unknown as Record<string, unknown>)[TOLERANT_BODY_EXTENSION] ? tolerant : strict;
      namedBy(body.content['application/json']?.schema, schemas, taken);
    }
  }
  for (const name of strict) {
    const schema = schemas[name];
    if (!tolerant.has(name) && schema && !('$ref' in schema) && schema.type === 'object')
      schema.additionalProperties = false;
  }
  return document;
}
