/** One SQL expression for each field of T: no field left out, none added (the compiler checks both). */
export type SqlFieldsOf<T> = { readonly [K in keyof T]-?: string };

/**
 * A jsonb object with exactly the fields of a class that describes a body PostgreSQL builds (a
 * webhook message's data): the class is also the body's OpenAPI schema, so the document and what
 * is sent cannot drift apart.
 */
export function jsonbObjectOf<T>(fields: SqlFieldsOf<T>): string {
  const pairs = Object.entries<string>(fields).map(([name, expression]) => `'${name}', ${expression}`);
  return `jsonb_build_object(${pairs.join(', ')})`;
}
