import { hash } from 'node:crypto';

/** The one route that takes a CSV body (contract §18), and its own limit in place of JSON's 1 MiB. */
export const CSV_BODY_LIMIT_BYTES = 5 * 1024 * 1024;
export const CSV_ROUTE = '/catalog/products/import';

/** As either router matches the route: Express's ignores case and a trailing slash, Fastify's (ignoreTrailingSlash) the slash. */
const CSV_PATH = /^\/catalog\/products\/import\/?$/i;

export const takesCsv = (path: string): boolean => CSV_PATH.test(path);

export const isCsv = (contentType: string | undefined): boolean =>
  contentType?.split(';')[0].trim().toLowerCase() === 'text/csv';

const CHARSET = /;\s*charset\s*=\s*"?([^";\s]*)"?/i;

/** `text/csv`, without a charset or with UTF-8's: the one type the import takes. */
export function isUtf8Csv(contentType: string | undefined): boolean {
  if (!isCsv(contentType)) return false;
  const charset = CHARSET.exec(contentType!)?.[1];
  return charset === undefined || /^utf-?8$/i.test(charset);
}

/**
 * A CSV body as received, for the route to judge after its guards (so a caller without the right
 * sees 401/403, not a verdict on the file). What an idempotency key remembers of it is its digest,
 * not megabytes of JSON-encoded bytes.
 */
export class CsvUpload {
  /** `contentType` and `dryRun` (the query's, as sent) are part of what a key remembers: a check is not an import. */
  constructor(
    readonly bytes: Buffer,
    private readonly contentType?: string,
    private readonly dryRun?: unknown,
  ) {}

  toJSON(): { csvSha256: string; contentType: string | null; dryRun: unknown } {
    return {
      csvSha256: hash('sha256', this.bytes, 'hex'),
      contentType: this.contentType ?? null,
      dryRun: this.dryRun ?? null,
    };
  }
}
