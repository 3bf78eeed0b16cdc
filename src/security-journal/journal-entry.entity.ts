import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

@Entity('security_journal')
@Index('ix_security_journal_brand', ['brandId', 'at', 'id'])
@Index('ix_security_journal_target_brand', ['targetBrandId', 'at', 'id'])
@Index('ix_security_journal_at', ['at', 'id'])
// An account's own entries (GET /auth/activity): written with no brand and the account as actor.
@Index('ix_security_journal_account', ['actorId', 'at', 'id'], {
  where: `"actor_kind" = 'user' AND "brand_id" IS NULL`,
})
@Index('ux_security_journal_repeat', ['repeatOf', 'repeatMinute'], { unique: true, where: '"repeat_of" IS NOT NULL' })
export class JournalEntryEntity {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'BY DEFAULT' })
  id: string;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  at: Date;

  @Column({ type: 'varchar', length: 64 })
  type: string;

  @Column({ name: 'brand_id', type: 'integer', nullable: true })
  brandId: number | null;

  @Column({ name: 'target_brand_id', type: 'integer', nullable: true })
  targetBrandId: number | null;

  @Column({ name: 'actor_kind', type: 'varchar', length: 20, nullable: true })
  actorKind: string | null;

  @Column({ name: 'actor_id', type: 'integer', nullable: true })
  actorId: number | null;

  @Column({ type: 'varchar', length: 10, nullable: true })
  method: string | null;

  @Column({ type: 'varchar', length: 2048, nullable: true })
  path: string | null;

  @Column({ type: 'varchar', length: 64, nullable: true })
  ip: string | null;

  @Column({ type: 'jsonb', default: () => "'{}'" })
  details: Record<string, unknown>;

  /** How many refusals this entry stands for: 1, or more for one repeated within its minute. */
  @Column({ type: 'integer', default: 1 })
  count: number;

  /** What makes a repeated refusal the same one (its type, key and address); null for every other entry. */
  @Column({ name: 'repeat_of', type: 'varchar', length: 160, nullable: true })
  repeatOf: string | null;

  /** The minute a repeated refusal is counted in, with repeat_of the key every instance merges on. */
  @Column({ name: 'repeat_minute', type: 'timestamptz', nullable: true })
  repeatMinute: Date | null;
}
