import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * One Idempotency-Key of one calling key (contract §11): the request it came with and, once
 * answered, the answer, kept 24 hours. The primary key makes a second request with the key wait
 * for, then see, the first one's row: every instance honours it.
 */
@Entity('idempotency_keys')
@Index('ix_idempotency_keys_created', ['createdAt'])
export class IdempotencyKeyEntity {
  /** The calling key: `integration_key:<id>` or `site_key:<id>`. */
  @PrimaryColumn({ type: 'varchar', length: 64 })
  scope: string;

  @PrimaryColumn({ type: 'varchar', length: 255 })
  key: string;

  /** SHA-256 of the method, path and body. */
  @Column({ name: 'request_hash', type: 'bytea' })
  requestHash: Buffer;

  /** Null while the first request is in progress. */
  @Column({ name: 'response_status', type: 'smallint', nullable: true })
  responseStatus: number | null;

  @Column({ name: 'response_body', type: 'jsonb', nullable: true })
  responseBody: unknown;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  /** The claim of the request that runs (or ran) with this key; a takeover gives it a new one. */
  @Column({ name: 'claim_id', type: 'uuid' })
  claimId: string;

  /** What that request's transactions committed, in order (IdempotencyRecord), for a takeover to resume from. */
  @Column({ type: 'bytea', array: true, default: () => "'{}'" })
  effects: Buffer[];

  /** When the request in progress started (or was taken over from an instance that stopped). */
  @Column({ name: 'locked_at', type: 'timestamptz', default: () => 'now()' })
  lockedAt: Date;
}
