import { Check, Column, CreateDateColumn, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';
import type { BrandPermission } from '../../common/context/permissions';
import { BrandEntity } from './brand.entity';
import { UserEntity } from './user.entity';

export type InvitationStatus = 'pending' | 'accepted' | 'revoked' | 'replaced';

/**
 * An invitation to a brand's team (contract §19). The token is minted when its mail is sent and
 * kept only as its SHA-256; a pending invitation past `expires_at` is expired.
 */
@Entity('invitations')
@Check('ck_invitations_status', `"status" IN ('pending', 'accepted', 'revoked', 'replaced')`)
@Check('ck_invitations_not_empty', `cardinality("permissions") > 0`)
@Check('ck_invitations_email_lowercase', `"email" = lower("email")`)
@Index('ux_invitations_pending', ['brandId', 'email'], { unique: true, where: `"status" = 'pending'` })
@Index('ux_invitations_token', ['tokenHash'], { unique: true, where: '"token_hash" IS NOT NULL' })
@Index('ix_invitations_brand_created', ['brandId', 'createdAt'])
export class InvitationEntity {
  @PrimaryGeneratedColumn('identity', { generatedIdentity: 'BY DEFAULT' })
  id: number;

  @Column({ name: 'brand_id', type: 'integer' })
  @ForeignKey(() => BrandEntity, { name: 'invitations_brand_id_fkey', onDelete: 'CASCADE' })
  brandId: number;

  @Column({ type: 'varchar', length: 254 })
  email: string;

  @Column({ type: 'text', array: true })
  permissions: BrandPermission[];

  @Column({ name: 'token_hash', type: 'bytea', nullable: true })
  tokenHash: Buffer | null;

  @Column({ name: 'invited_by', type: 'integer', nullable: true })
  @ForeignKey(() => UserEntity, { name: 'invitations_invited_by_fkey', onDelete: 'SET NULL' })
  invitedBy: number | null;

  @Column({ type: 'varchar', length: 10, default: 'pending' })
  status: InvitationStatus;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt: Date;

  @Column({ name: 'ended_at', type: 'timestamptz', nullable: true })
  endedAt: Date | null;
}
