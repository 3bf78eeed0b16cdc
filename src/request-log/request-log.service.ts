import { Injectable } from '@nestjs/common';
import { IntegrationKeyOwners } from '../access-keys/integration-key-owners';
import type { BrandContext } from '../common/context/request-context';
import type { KeyRequestResponse, KeyUsageResponse } from './dto/request-log.responses';
import { RequestLogRepository, type FailureRow } from './request-log.repository';

const TOP_ERRORS = 10;

/** What the request log shows of one key of the request's brand (contract §15). */
@Injectable()
export class RequestLogService {
  constructor(
    private readonly owners: IntegrationKeyOwners,
    private readonly log: RequestLogRepository,
  ) {}

  async requests(
    ctx: BrandContext,
    keyId: number,
    page: { limit: number; before?: number },
  ): Promise<KeyRequestResponse[]> {
    await this.owners.assertOwned(ctx, keyId);
    return (await this.log.failures(keyId, page.limit, page.before)).map(toResponse);
  }

  async usage(ctx: BrandContext, keyId: number): Promise<KeyUsageResponse> {
    await this.owners.assertOwned(ctx, keyId);
    const [counts, errors] = await Promise.all([this.log.countsByStatus(keyId), this.log.topErrors(keyId, TOP_ERRORS)]);
    const byStatus: Record<string, number> = {};
    let total = 0;
    for (const { status, count } of counts) {
      byStatus[String(status)] = count;
      total += count;
    }
    return {
      last24h: { total, byStatus },
      topErrors: errors.map((e) => ({
        status: e.status,
        error: e.error,
        count: e.count,
        lastAt: e.last_at.toISOString(),
      })),
    };
  }
}

function toResponse(r: FailureRow): KeyRequestResponse {
  return {
    id: Number(r.id),
    at: r.at.toISOString(),
    method: r.method,
    route: r.route,
    path: r.path,
    status: r.status,
    error: r.error,
    requestId: r.request_id,
    idempotencyKey: r.idempotency_key,
    durationMs: r.duration_ms,
    ip: r.ip,
    count: r.count,
  };
}
