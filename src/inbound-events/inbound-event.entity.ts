import { Check, Column, Entity, ForeignKey, PrimaryColumn } from 'typeorm';
import { OrderEntity } from '../orders/order.entity';

/** A processed payment or carrier event; its key makes a repeated eventId a no-op. */
@Entity('inbound_events')
@Check('ck_inbound_events_flow', `"flow" IN ('payment', 'carrier')`)
export class InboundEventEntity {
  @PrimaryColumn({ type: 'varchar', length: 16 })
  flow: 'payment' | 'carrier';

  @PrimaryColumn({ name: 'event_id', type: 'varchar', length: 200 })
  eventId: string;

  @Column({ name: 'order_id', type: 'integer' })
  @ForeignKey(() => OrderEntity, { name: 'fk_inbound_events_order' })
  orderId: number;

  @Column({ type: 'varchar', length: 32 })
  outcome: string;

  @Column({ type: 'jsonb' })
  payload: Record<string, unknown>;

  @Column({ name: 'received_at', type: 'timestamptz', default: () => 'now()' })
  receivedAt: Date;
}
