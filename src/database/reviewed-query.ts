/**
 * A statement as reviewers read it: `npm run sql:render` writes each one a module lists (its
 * `*.queries.ts`) to the module's `queries/<name>.sql`, formatted, and a test fails while a file and
 * the code that composes the statement differ. So a change to a part shows as a diff of every
 * statement that uses it.
 */
export interface ReviewedQuery {
  /** The file's name in kebab case; a prepared statement's own name in snake case is turned into it. */
  name: string;
  text: string;
  /** The `$n` parameters' names in order, for a statement that takes them by name (NamedParameters). */
  parameters?: readonly string[];
  /** One line on what the statement is for, above its text. */
  purpose: string;
}
