import { Column, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';
import { IntegrationKeyEntity } from '../access-keys/integration-key.entity';

/**
 * One request of a key answered 400 or above, kept 30 days (contract §15): never the key, a
 * session token or the request's body.
 */
@Entity('request_failures')
@Index('ix_request_failures_key_at', ['keyId', 'at', 'id'])
@Index('ix_request_failures_at', ['at'])
@Index('ux_request_failures_fold', ['keyId', 'foldMinute', 'foldSlot'], {
  unique: true,
  where: '"fold_minute" IS NOT NULL',
})
export class RequestFailureEntity {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'BY DEFAULT' })
  id: string;

  @Column({ name: 'key_id', type: 'integer' })
  @ForeignKey(() => IntegrationKeyEntity, { name: 'fk_request_failures_key', onDelete: 'CASCADE' })
  keyId: number;

  /** When it was answered. */
  @Column({ type: 'timestamptz' })
  at: Date;

  @Column({ type: 'varchar', length: 16 })
  method: string;

  /** The route's template, or null when no route matched. */
  @Column({ type: 'varchar', length: 512, nullable: true })
  route: string | null;

  /** The path without its query. */
  @Column({ type: 'varchar', length: 2048 })
  path: string;

  @Column({ type: 'smallint' })
  status: number;

  /** The answer's `error` text. */
  @Column({ type: 'varchar', length: 1000, nullable: true })
  error: string | null;

  @Column({ name: 'request_id', type: 'varchar', length: 64 })
  requestId: string;

  @Column({ name: 'idempotency_key', type: 'varchar', length: 255, nullable: true })
  idempotencyKey: string | null;

  @Column({ name: 'duration_ms', type: 'real' })
  durationMs: number;

  @Column({ type: 'varchar', length: 64 })
  ip: string;

  /** How many answers this row stands for: more than 1 only for 429s past the few of a minute kept in full. */
  @Column({ type: 'integer', default: 1 })
  count: number;

  /**
   * For a 429: the minute it was answered in and its place among the key's 429s of that minute
   * (the last place holds all the rest). Unique with the key, so every instance adds to one row.
   */
  @Column({ name: 'fold_minute', type: 'timestamptz', nullable: true })
  foldMinute: Date | null;

  @Column({ name: 'fold_slot', type: 'smallint', nullable: true })
  foldSlot: number | null;
}
