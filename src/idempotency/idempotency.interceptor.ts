import { CallHandler, ExecutionContext, Injectable, Logger, NestInterceptor } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { HttpAdapterHost } from '@nestjs/core';
import { from, lastValueFrom, type Observable } from 'rxjs';
import { contextOf } from '../common/context/context-of';
import type { HttpRequest } from '../common/context/http-types';
import { AppError } from '../common/errors/app-error';
import type { Environment } from '../config/environment';
import { describeError } from '../common/errors/error-description';
import { ErrorText } from '../common/errors/error-texts';
import { headerOf } from '../common/http/header-of';
import { sha256Bytes } from '../common/runtime/sha256';
import { withRequestCommits } from '../database/request-commits';
import { IdempotencyRecord } from './idempotency-record';
import { IdempotencyRepository } from './idempotency.repository';

const VALID_KEY = /^[\x20-\x7e]{1,255}$/;
const SWEEP_EVERY_MS = 60_000;
/** Principals whose POSTs may carry Idempotency-Key (contract §11). */
const KEY_PRINCIPALS = new Set(['integration_key', 'site_key']);

/**
 * Idempotency-Key (contract §11), in PostgreSQL so every instance honours it. Runs after the
 * guards, so 401, 403 and 429 never reach it; a 400 from validation, a 429 or any 5xx releases the
 * claim (a retry runs again); every other answer is stored and replayed for 24 hours with
 * `Idempotent-Replayed: true`. Each change the request makes records itself in its own
 * transaction (IdempotencyRecord), so a retry that takes over the claim of a run cut short by a
 * crash finishes that run from what it committed instead of changing anything a second time.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  private readonly logger = new Logger('Idempotency');
  private lastSweep = 0;

  /** Longer than any request runs: a claim older than this with no answer was left by a stopped instance. */
  private readonly abandonAfterSeconds: number;

  constructor(
    private readonly keys: IdempotencyRepository,
    private readonly adapterHost: HttpAdapterHost,
    config: ConfigService<Environment, true>,
  ) {
    this.abandonAfterSeconds = config.get('IDEMPOTENCY_ABANDON_SECONDS', { infer: true });
  }

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<HttpRequest & { body?: unknown }>();
    if (request.method !== 'POST') return next.handle();
    const key = headerOf(request, 'idempotency-key');
    const principal = contextOf(request).principal;
    if (key === undefined || !principal || !KEY_PRINCIPALS.has(principal.kind)) return next.handle();
    if (!VALID_KEY.test(key)) throw AppError.badRequest([ErrorText.invalidIdempotencyKey]);
    const response: unknown = context.switchToHttp().getResponse();
    return from(this.run(request, response, key, next));
  }

  private async run(
    request: HttpRequest & { body?: unknown },
    response: unknown,
    key: string,
    next: CallHandler,
  ): Promise<unknown> {
    this.sweepNowAndThen();
    const principal = contextOf(request).principal!;
    const scope = `${principal.kind}:${principal.id}`;
    const http = this.adapterHost.httpAdapter;
    const path = contextOf(request).path;
    const hash = sha256Bytes(`${request.method} ${path}\n${JSON.stringify(request.body ?? null)}`);
    const claim = await this.keys.claim(scope, key, hash, this.abandonAfterSeconds);
    if (claim.kind === 'mismatch') throw AppError.unprocessable(ErrorText.idempotencyKeyReused);
    if (claim.kind === 'in_progress') throw AppError.conflict(ErrorText.idempotencyKeyInProgress);
    if (claim.kind === 'replay') {
      http.status(response, claim.status);
      http.setHeader(response, 'Idempotent-Replayed', 'true');
      return claim.status >= 400 ? { ...(claim.body as object), requestId: contextOf(request).requestId } : claim.body;
    }
    const { claimId } = claim;
    const record = new IdempotencyRecord(this.keys, { scope, key, claimId }, claim.effects);
    // A run taken over from one cut short after its change committed finishes that change: its
    // answer is the earlier request's, replayed, like any later repeat's (contract §11).
    const resumed = claim.effects.length > 0;
    try {
      const body: unknown = await withRequestCommits(record, () =>
        lastValueFrom(next.handle() as Observable<unknown>, { defaultValue: undefined }),
      );
      record.close();
      await this.keys.complete(scope, key, claimId, (response as { statusCode: number }).statusCode, body);
      if (resumed) http.setHeader(response, 'Idempotent-Replayed', 'true');
      return body;
    } catch (error) {
      record.close();
      const { status, body } = describeError(error);
      // A 429 is a refusal before the work began (contract §11), wherever it was decided: a retry runs anew.
      if (status === 400 || status === 429 || status >= 500) await this.keys.release(scope, key, claimId);
      else {
        await this.keys.complete(scope, key, claimId, status, body);
        if (resumed) http.setHeader(response, 'Idempotent-Replayed', 'true');
      }
      throw error;
    }
  }

  /** Expired keys, at most once a minute per instance, off the request's path. */
  private sweepNowAndThen(): void {
    if (Date.now() - this.lastSweep < SWEEP_EVERY_MS) return;
    this.lastSweep = Date.now();
    this.keys
      .sweep()
      .catch((error: Error) => this.logger.warn(`could not sweep expired idempotency keys: ${error.message}`));
  }
}
