import { Check, Column, CreateDateColumn, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';
import type { BrandPermission } from '../common/context/permissions';
import { BrandEntity } from '../identity/entities/brand.entity';
import { UserEntity } from '../identity/entities/user.entity';

@Entity('integration_keys')
@Check('ck_integration_keys_grant', `"full_access" OR cardinality("permissions") > 0`)
@Index('ix_integration_keys_brand', ['brandId'])
// The expiry check reads only keys that will expire.
@Index('ix_integration_keys_expiring', ['expiresAt'], { where: `"expires_at" IS NOT NULL AND "revoked_at" IS NULL` })
export class IntegrationKeyEntity {
  @PrimaryGeneratedColumn('identity', { generatedIdentity: 'BY DEFAULT' })
  id: number;

  @Column({ name: 'brand_id', type: 'integer' })
  @ForeignKey(() => BrandEntity, { name: 'fk_integration_keys_brand', onDelete: 'CASCADE' })
  brandId: number;

  /** The integration's name, recorded in the journal. */
  @Column({ type: 'varchar', length: 100 })
  name: string;

  /** SHA-256 of the key; the key itself is never stored. */
  @Column({ type: 'bytea', unique: true })
  fingerprint: Buffer;

  @Column({ name: 'key_hint', type: 'varchar', length: 16 })
  keyHint: string;

  @Column({ type: 'text', array: true })
  permissions: BrandPermission[];

  @Column({ name: 'full_access', type: 'boolean' })
  fullAccess: boolean;

  @Column({ name: 'expires_at', type: 'timestamptz', nullable: true })
  expiresAt: Date | null;

  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'created_by', type: 'integer' })
  @ForeignKey(() => UserEntity, { name: 'fk_integration_keys_author' })
  createdBy: number;

  /** Decides the author rule: such a key needs its author to stay a superadministrator. */
  @Column({ name: 'issued_as_superadmin', type: 'boolean' })
  issuedAsSuperadmin: boolean;

  @Column({ name: 'last_used_at', type: 'timestamptz', nullable: true })
  lastUsedAt: Date | null;

  @Column({ name: 'last_used_ip', type: 'varchar', length: 64, nullable: true })
  lastUsedIp: string | null;

  /** Addresses and CIDR blocks the key may be used from; null: any. */
  @Column({ name: 'allowed_ips', type: 'text', array: true, nullable: true })
  allowedIps: string[] | null;

  /** The key this one replaced by a roll. */
  @Column({ name: 'rolled_from_id', type: 'integer', nullable: true })
  @ForeignKey(() => IntegrationKeyEntity, { name: 'fk_integration_keys_rolled_from' })
  rolledFromId: number | null;

  /** Set when a roll replaced this key: a key is rolled once. */
  @Column({ name: 'rolled_at', type: 'timestamptz', nullable: true })
  rolledAt: Date | null;

  /** When the 7-day and the 1-day expiry reminders were claimed (each once, whichever instance). */
  @Column({ name: 'reminded_7d_at', type: 'timestamptz', nullable: true })
  reminded7dAt: Date | null;

  @Column({ name: 'reminded_1d_at', type: 'timestamptz', nullable: true })
  reminded1dAt: Date | null;
}
