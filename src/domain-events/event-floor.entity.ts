import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * A subject's last pruned event's sequence and position (EventsPruning): its next event is
 * numbered after them once none of its events is left (domain-events.sql.ts). Sizes, numbered by
 * their own row, have none.
 */
@Entity('domain_event_floors')
export class EventFloorEntity {
  @PrimaryColumn({ type: 'varchar', length: 16, primaryKeyConstraintName: 'pk_domain_event_floors' })
  subject: string;

  @PrimaryColumn({ name: 'subject_id', type: 'integer', primaryKeyConstraintName: 'pk_domain_event_floors' })
  subjectId: number;

  @Column({ type: 'integer' })
  sequence: number;

  @Column({ type: 'bigint' })
  position: string;
}
