import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { defer, finalize, from, mergeMap, type Observable } from 'rxjs';
import { contextOf } from '../common/context/context-of';
import type { HttpRequest } from '../common/context/http-types';
import { AppError } from '../common/errors/app-error';
import { headerOf } from '../common/http/header-of';
import { readStreamedBody } from '../common/http/streamed-body';
import { CATALOG_IMPORT_BODY, CsvUpload, isUtf8Csv } from './catalog-import-body';
import { CatalogImportSlots } from './catalog-import-slots';

/**
 * The import's body, read here, after the guards (a caller without the right is answered before
 * a byte of the file is read) and before the Idempotency-Key interceptor (which remembers the
 * file's digest): the type first (415), then a slot (429), then the file (413 past 5 MiB). The
 * slot is held until the import answers.
 */
@Injectable()
export class CatalogImportUploadInterceptor implements NestInterceptor {
  constructor(private readonly slots: CatalogImportSlots) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<HttpRequest & { body?: unknown; query?: unknown }>();
    const contentType = headerOf(request, 'content-type');
    if (!isUtf8Csv(contentType)) throw AppError.unsupportedMediaTypeCsv();
    const principal = contextOf(request).principal!;
    const release = this.slots.take(`${principal.kind}:${principal.id}`);
    return defer(() => from(readStreamedBody(request, CATALOG_IMPORT_BODY))).pipe(
      mergeMap((bytes) => {
        const dryRun = (request.query as Record<string, unknown> | undefined)?.dryRun;
        request.body = new CsvUpload(bytes, contentType, dryRun);
        return next.handle();
      }),
      finalize(release),
    );
  }
}
