import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, type ColumnType } from 'typeorm';
import type { EventColumns } from './event-columns';

/** What an event is about, named by its owner; the column's domain holds the values (migration DomainEventSubjectType). */
export type DomainEventSubject = string;

/**
 * What happened to something an owner keeps, written in the transaction of the change (contract
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
// Their pruning by age (EventsPruning).
@Index('ix_domain_events_occurred', ['occurredAt'])
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

  /** NULL for the events an owner keeps in typed columns of its own (keepColumnsOf). */
  @Column({ type: 'jsonb', nullable: true })
  data: Record<string, unknown> | null;

  @CreateDateColumn({ name: 'occurred_at', type: 'timestamptz' })
  occurredAt: Date;
}

/**
 * Declares on the entity the typed columns an owner keeps its events in (EventColumns; its
 * migration adds them), so the schema TypeORM describes (migration:generate, the schema-drift
 * suite) has them. The owner calls it from a file of its own named `*.entity.ts`, which the
 * entity globs load and its module imports.
 */
export function keepColumnsOf(kept: EventColumns): void {
  for (const [column, type] of Object.values<readonly [string, string]>(kept.columns)) {
    Column({ name: column, type: type as ColumnType, nullable: true })(DomainEventEntity.prototype, column);
  }
}
