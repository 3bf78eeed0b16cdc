import { Column, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';
import { WebhookDeliveryEntity } from './webhook-delivery.entity';

/**
 * One failed try of a delivery: what the receiver answered, how long it took. A success is kept on
 * its delivery (PERF-25) and becomes a row here when the delivery is sent again; successes from
 * before that are rows here too, until pruned.
 */
@Entity('webhook_attempts')
@Index('ix_webhook_attempts_delivery', ['deliveryId', 'id'])
export class WebhookAttemptEntity {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'BY DEFAULT' })
  id: string;

  @Column({ name: 'delivery_id', type: 'bigint' })
  @ForeignKey(() => WebhookDeliveryEntity, { name: 'fk_webhook_attempts_delivery', onDelete: 'CASCADE' })
  deliveryId: string;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  at: Date;

  @Column({ name: 'response_status', type: 'smallint', nullable: true })
  responseStatus: number | null;

  @Column({ name: 'duration_ms', type: 'integer' })
  durationMs: number;

  @Column({ type: 'varchar', length: 500, nullable: true })
  error: string | null;

  /** The first KiB of the answer's body. */
  @Column({ name: 'response_body', type: 'varchar', length: 1024, nullable: true })
  responseBody: string | null;
}
