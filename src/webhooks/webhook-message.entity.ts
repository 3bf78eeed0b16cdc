import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, Unique } from 'typeorm';

/** One event as sent: the same `webhook-id` and body to every endpoint and on every retry. */
@Entity('webhook_messages')
@Unique('uq_webhook_messages_msg_id', ['msgId'])
@Index('ix_webhook_messages_created', ['createdAt'])
export class WebhookMessageEntity {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'BY DEFAULT' })
  id: string;

  @Column({ name: 'msg_id', type: 'varchar', length: 64 })
  msgId: string;

  @Column({ name: 'brand_id', type: 'integer' })
  brandId: number;

  @Column({ name: 'event_type', type: 'varchar', length: 64 })
  eventType: string;

  /** The body: {type, timestamp, data}. */
  @Column({ type: 'jsonb' })
  payload: Record<string, unknown>;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
