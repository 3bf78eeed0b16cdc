import { Check, Column, CreateDateColumn, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';
import type { BrandPermission } from '../common/context/permissions';
import { BrandEntity } from '../identity/entities/brand.entity';
import { UserEntity } from '../identity/entities/user.entity';

@Entity('integration_keys')
@Check('ck_integration_keys_grant', `"full_access" OR cardinality("permissions") > 0`)
@Index('ix_integration_keys_brand', ['brandId'])
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
}
