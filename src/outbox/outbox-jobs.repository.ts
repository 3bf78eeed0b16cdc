import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

export type OutboxState = 'pending' | 'failed' | 'done';

const STATE_FILTER: Record<OutboxState, string> = {
  pending: 'done_at IS NULL AND failed_at IS NULL',
  failed: 'failed_at IS NOT NULL',
  done: 'done_at IS NOT NULL',
};

export interface OutboxJobView {
  id: number;
  kind: string;
  payload: Record<string, unknown>;
  attempts: number;
  lastError: string | null;
  runAfter: string;
  createdAt: string;
  doneAt: string | null;
  failedAt: string | null;
}

/** What the outbox holds, for the operations view: jobs in one state, newest first, and the counts. */
@Injectable()
export class OutboxJobs {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async list(
    state: OutboxState,
    limit: number,
  ): Promise<{ counts: { pending: number; failed: number }; items: OutboxJobView[] }> {
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
         FROM outbox WHERE ${STATE_FILTER[state]} ORDER BY id DESC LIMIT $1`,
      [limit],
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
