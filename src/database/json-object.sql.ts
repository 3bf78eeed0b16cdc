/**
 * One SQL expression for each field of T. Given as an object literal, none may be left out and
 * none added: the compiler checks both.
 */
export type SqlFieldsOf<T> = { readonly [K in keyof T]-?: string };

/**
 * A jsonb object with exactly the fields of a class that describes a body PostgreSQL builds (a
 * webhook message's data): the class is also the body's OpenAPI schema, so the document and what
 * is sent share their fields. A field the class declares without `@ApiProperty` is missing from
 * the schema: the suites that hold real messages to the document catch it.
 */
export function jsonbObjectOf<T>(fields: SqlFieldsOf<T>): string {
  const pairs = Object.entries<string>(fields).map(([name, expression]) => `'${name}', ${expression}`);
  return `jsonb_build_object(${pairs.join(', ')})`;
}
