import { Controller, Get, Query } from '@nestjs/common';
import { ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import { InjectDataSource } from '@nestjs/typeorm';
import { IsIn, IsOptional } from 'class-validator';
import { DataSource } from 'typeorm';
import { PLATFORM_ADMIN } from '../common/context/permissions';
import { RequirePermission } from '../common/decorators/require-permission.decorator';
import { LimitQueryDto } from '../common/validation/limit-query.dto';

export class OutboxQueryDto extends LimitQueryDto {
  @ApiPropertyOptional({ enum: ['pending', 'failed', 'done'], default: 'pending' })
  @IsOptional()
  @IsIn(['pending', 'failed', 'done'])
  state: 'pending' | 'failed' | 'done' = 'pending';
}

const STATE_FILTER = {
  pending: 'done_at IS NULL AND failed_at IS NULL',
  failed: 'failed_at IS NOT NULL',
  done: 'done_at IS NOT NULL',
} as const;

/** What the outbox holds: pending jobs (with attempts and last error) and the ones given up. */
@ApiTags('operations')
@Controller('admin/outbox')
export class OutboxAdminController {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  @RequirePermission(PLATFORM_ADMIN)
  @Get()
  async list(@Query() query: OutboxQueryDto) {
    const rows: Array<{
      id: string;
      kind: string;
      payload: Record<string, unknown>;
      attempts: number;
      last_error: string | null;
      run_after: Date;
      created_at: Date;
      done_at: Date | null;
      failed_at: Date | null;
    }> = await this.db.query(
      `SELECT id, kind, payload, attempts, last_error, run_after, created_at, done_at, failed_at
         FROM outbox WHERE ${STATE_FILTER[query.state]} ORDER BY id DESC LIMIT $1`,
      [query.limit],
    );
    const counts: Array<{ pending: number; failed: number }> = await this.db.query(
      `SELECT count(*) FILTER (WHERE done_at IS NULL AND failed_at IS NULL)::int AS pending,
              count(*) FILTER (WHERE failed_at IS NOT NULL)::int AS failed FROM outbox`,
    );
    return {
      counts: counts[0],
      items: rows.map((r) => ({
        id: Number(r.id),
        kind: r.kind,
        payload: r.payload,
        attempts: r.attempts,
        lastError: r.last_error,
        runAfter: r.run_after.toISOString(),
        createdAt: r.created_at.toISOString(),
        doneAt: r.done_at?.toISOString() ?? null,
        failedAt: r.failed_at?.toISOString() ?? null,
      })),
    };
  }
}
