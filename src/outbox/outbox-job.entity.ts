import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/** Work to run after a commit (a mail, a carrier call), written in the transaction that caused it. */
@Entity('outbox')
@Index('ix_outbox_pending', ['runAfter'], { where: '"done_at" IS NULL AND "failed_at" IS NULL' })
// The jobs given up, counted at every metrics scrape.
@Index('ix_outbox_failed', ['failedAt'], { where: '"failed_at" IS NOT NULL' })
// An order's jobs that quote an error, for the personal-data erasure (migration 1763772100000 owns this partial
// expression index).
@Index('ix_outbox_order', { synchronize: false })
export class OutboxJobEntity {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'BY DEFAULT' })
  id: string;

  @Column({ type: 'varchar', length: 64 })
  kind: string;

  @Column({ type: 'jsonb' })
  payload: Record<string, unknown>;

  /** At most one job per key: the same event recorded twice is one job. */
  @Column({ name: 'dedupe_key', type: 'varchar', length: 200, nullable: true, unique: true })
  dedupeKey: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'run_after', type: 'timestamptz', default: () => 'now()' })
  runAfter: Date;

  @Column({ type: 'integer', default: 0 })
  attempts: number;

  @Column({ name: 'last_error', type: 'text', nullable: true })
  lastError: string | null;

  @Column({ name: 'done_at', type: 'timestamptz', nullable: true })
  doneAt: Date | null;

  /** Given up after the retry window; kept for the stuck-jobs view. */
  @Column({ name: 'failed_at', type: 'timestamptz', nullable: true })
  failedAt: Date | null;

  /** The lease of the worker running the job; only its holder may finish it. */
  @Column({ name: 'lock_token', type: 'uuid', nullable: true })
  lockToken: string | null;

  @Column({ name: 'locked_until', type: 'timestamptz', nullable: true })
  lockedUntil: Date | null;
}
