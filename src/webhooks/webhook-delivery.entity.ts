import { Check, Column, CreateDateColumn, Entity, ForeignKey, Index, PrimaryGeneratedColumn, Unique } from 'typeorm';
import { WebhookEndpointEntity } from './webhook-endpoint.entity';
import { WebhookMessageEntity } from './webhook-message.entity';

/** One message to one endpoint: pending until a 2xx, failed after the last retry. */
@Entity('webhook_deliveries')
@Unique('uq_webhook_deliveries_message_endpoint', ['messageId', 'endpointId'])
@Check('ck_webhook_deliveries_status', `"status" IN ('pending', 'succeeded', 'failed')`)
@Check(
  'ck_webhook_deliveries_success',
  `"succeeded_at" IS NULL OR ("status" = 'succeeded' AND "success_status" IS NOT NULL AND "success_duration_ms" IS NOT NULL)`,
)
@Check(
  'ck_webhook_deliveries_success_parts',
  `"succeeded_at" IS NOT NULL OR ("success_status" IS NULL AND "success_duration_ms" IS NULL AND "success_body" IS NULL)`,
)
@Index('ix_webhook_deliveries_due', ['nextAttemptAt'], { where: `"status" = 'pending'` })
// The deliveries whose retries ran out, counted at every metrics scrape.
@Index('ix_webhook_deliveries_failed', ['createdAt'], { where: `"status" = 'failed'` })
@Index('ix_webhook_deliveries_endpoint', ['endpointId', 'id'])
// The claims in flight: a handful, whatever the backlog, so counting them per endpoint stays cheap.
@Index('ix_webhook_deliveries_claimed', ['endpointId'], { where: `"lock_token" IS NOT NULL` })
export class WebhookDeliveryEntity {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'BY DEFAULT' })
  id: string;

  @Column({ name: 'message_id', type: 'bigint' })
  @ForeignKey(() => WebhookMessageEntity, { name: 'fk_webhook_deliveries_message', onDelete: 'CASCADE' })
  messageId: string;

  @Column({ name: 'endpoint_id', type: 'integer' })
  @ForeignKey(() => WebhookEndpointEntity, { name: 'fk_webhook_deliveries_endpoint', onDelete: 'CASCADE' })
  endpointId: number;

  @Column({ type: 'varchar', length: 16, default: 'pending' })
  status: 'pending' | 'succeeded' | 'failed';

  @Column({ type: 'integer', default: 0 })
  attempts: number;

  @Column({ name: 'next_attempt_at', type: 'timestamptz', nullable: true, default: () => 'now()' })
  nextAttemptAt: Date | null;

  /** A worker's claim: its token, until when. */
  @Column({ name: 'lock_token', type: 'uuid', nullable: true })
  lockToken: string | null;

  @Column({ name: 'locked_until', type: 'timestamptz', nullable: true })
  lockedUntil: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  /**
   * The successful attempt, kept here by the update that settles the delivery (webhook_attempts
   * holds the failures): when, the status, how long, the first KiB of the answer.
   */
  @Column({ name: 'succeeded_at', type: 'timestamptz', nullable: true })
  succeededAt: Date | null;

  @Column({ name: 'success_status', type: 'smallint', nullable: true })
  successStatus: number | null;

  @Column({ name: 'success_duration_ms', type: 'integer', nullable: true })
  successDurationMs: number | null;

  @Column({ name: 'success_body', type: 'varchar', length: 1024, nullable: true })
  successBody: string | null;
}
