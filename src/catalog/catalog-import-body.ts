import { hash } from 'node:crypto';
import type { StreamedBody } from '../common/http/streamed-body';
import { mediaTypeOf } from '../common/http/streamed-body';

/**
 * The catalog import's body (contract §18): CSV, up to 5 MiB in place of JSON's 1 MiB, read by the
 * route itself after its guards (catalog-import-upload.interceptor.ts), so that a caller without
 * the right is answered before a byte of the file is read; an upload that stalls holds its slot
 * (catalog-import-slots.ts: a few per caller and per instance) until it ends or times out, and no memory beyond
 * what it sent.
 */
export const CATALOG_IMPORT_BODY: StreamedBody = {
  url: '/catalog/products/import',
  mediaType: 'text/csv',
  limitBytes: 5 * 1024 * 1024,
};

const CHARSET = /;\s*charset\s*=\s*"?([^";\s]*)"?/i;

/** `text/csv`, without a charset or with UTF-8's: the one type the import takes. */
export function isUtf8Csv(contentType: string | undefined): boolean {
  if (mediaTypeOf(contentType) !== CATALOG_IMPORT_BODY.mediaType) return false;
  const charset = CHARSET.exec(contentType!)?.[1];
  return charset === undefined || /^utf-?8$/i.test(charset);
}

/**
 * A CSV body as received. What an idempotency key remembers of it is its digest, not megabytes of
 * JSON-encoded bytes.
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
