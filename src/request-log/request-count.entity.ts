import { Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';
import { IntegrationKeyEntity } from '../access-keys/integration-key.entity';

/**
 * How many requests of one key got one status on one route in one minute, added up by every
 * instance's flush (RequestRecorder): the 24-hour counts of the request log (contract §15).
 */
@Entity('request_counts')
@Index('ix_request_counts_minute', ['minute'])
export class RequestCountEntity {
  @PrimaryColumn({ name: 'key_id', type: 'integer' })
  @ForeignKey(() => IntegrationKeyEntity, { name: 'fk_request_counts_key', onDelete: 'CASCADE' })
  keyId: number;

  /** The minute the counts were written in. */
  @PrimaryColumn({ type: 'timestamptz' })
  minute: Date;

  @PrimaryColumn({ type: 'varchar', length: 16 })
  method: string;

  /** The route's template; empty when no route matched. */
  @PrimaryColumn({ type: 'varchar', length: 512 })
  route: string;

  @PrimaryColumn({ type: 'smallint' })
  status: number;

  @Column({ type: 'integer' })
  count: number;
}
