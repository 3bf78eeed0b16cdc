import { Column, CreateDateColumn, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';
import { UserEntity } from '../identity/entities/user.entity';
import { ProductionSiteEntity } from './production-site.entity';

@Entity('site_keys')
@Index('ix_site_keys_site', ['siteId'])
export class SiteKeyEntity {
  @PrimaryGeneratedColumn('identity', { generatedIdentity: 'BY DEFAULT' })
  id: number;

  @Column({ name: 'site_id', type: 'integer' })
  @ForeignKey(() => ProductionSiteEntity, { name: 'fk_site_keys_site', onDelete: 'CASCADE' })
  siteId: number;

  /** SHA-256 of the key; the key itself is never stored. */
  @Column({ type: 'bytea', unique: true })
  fingerprint: Buffer;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'created_by', type: 'integer' })
  @ForeignKey(() => UserEntity, { name: 'fk_site_keys_author' })
  createdBy: number;

  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt: Date | null;

  /** The key's last 4 characters, to recognise it in the list. Null for keys issued before hints. */
  @Column({ name: 'key_hint', type: 'varchar', length: 4, nullable: true })
  keyHint: string | null;

  @Column({ name: 'last_used_at', type: 'timestamptz', nullable: true })
  lastUsedAt: Date | null;
}
