import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/** What an event can be about: the values the column's domain allows (migration DomainEventSubjectType). */
export type DomainEventSubject = 'order' | 'return' | 'size' | 'product';

/**
 * What happened to an order, a return, a size's stock or a product, written in the transaction of the change (contract
 * §10): the outbound webhooks deliver from here, and the events API reads it (§16). `sequence`
 * counts one subject's events from 1.
 */
@Entity('domain_events')
/** Sizes left out: a size's sequence is its row's counter (migration StockEventStorage). */
@Index('uq_domain_events_sequence', ['subject', 'subjectId', 'sequence'], {
  unique: true,
  where: `"subject" <> 'size'`,
})
@Index('ix_domain_events_brand_position', ['brandId', 'position', 'id'])
export class DomainEventEntity {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'BY DEFAULT' })
  id: string;

  @Column({ name: 'brand_id', type: 'integer' })
  brandId: number;

  /** Of the domain `domain_event_subject` (a varchar(16) of DomainEventSubject), which TypeORM reads as its base type. */
  @Column({ type: 'varchar', length: 16 })
  subject: DomainEventSubject;

  @Column({ name: 'subject_id', type: 'integer' })
  subjectId: number;

  @Column({ type: 'integer' })
  sequence: number;

  /**
   * Where the event stands in its brand's stream (§16): the writing transaction's id (an xid8's
   * value), raised to its subject's previous event's when that is higher (domain-events.sql.ts);
   * by default (a writer that names none) its transaction's id alone.
   */
  @Column({ type: 'bigint', default: () => 'domain_event_position()' })
  position: string;

  @Column({ type: 'varchar', length: 64 })
  type: string;

  /** NULL for a `stock.changed` event, whose data is in the `stock_*` columns (stock-ledger/stock-event-columns.ts). */
  @Column({ type: 'jsonb', nullable: true })
  data: Record<string, unknown> | null;

  @Column({ name: 'stock_product_id', type: 'integer', nullable: true })
  stockProductId: number | null;

  @Column({ name: 'stock_article', type: 'text', nullable: true })
  stockArticle: string | null;

  @Column({ name: 'stock_storefront_article', type: 'text', nullable: true })
  stockStorefrontArticle: string | null;

  @Column({ name: 'stock_size', type: 'text', nullable: true })
  stockSize: string | null;

  @Column({ name: 'stock_delta', type: 'integer', nullable: true })
  stockDelta: number | null;

  @Column({ name: 'stock_after', type: 'integer', nullable: true })
  stockAfter: number | null;

  @Column({ name: 'stock_reason', type: 'text', nullable: true })
  stockReason: string | null;

  @Column({ name: 'stock_order_id', type: 'integer', nullable: true })
  stockOrderId: number | null;

  @Column({ name: 'stock_return_id', type: 'integer', nullable: true })
  stockReturnId: number | null;

  @CreateDateColumn({ name: 'occurred_at', type: 'timestamptz' })
  occurredAt: Date;
}
