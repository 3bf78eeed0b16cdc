import { Column, CreateDateColumn, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';
import { UserEntity } from './user.entity';

/**
 * A password reset (contract §19), made by the mail job of a request: its token minted when the
 * mail is sent and kept only as its SHA-256; ended when used or replaced by a newer one. The rows
 * of the last hour are the account's mail budget.
 */
@Entity('password_resets')
@Index('ux_password_resets_token', ['tokenHash'], { unique: true, where: '"token_hash" IS NOT NULL' })
@Index('ix_password_resets_user_created', ['userId', 'createdAt'])
@Index('ux_password_resets_request', ['requestId'], { unique: true })
export class PasswordResetEntity {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'BY DEFAULT' })
  id: string;

  @Column({ name: 'user_id', type: 'integer' })
  @ForeignKey(() => UserEntity, { name: 'password_resets_user_id_fkey', onDelete: 'CASCADE' })
  userId: number;

  /** The request (its outbox job) that asked for it: a retried job finds this reset again. */
  @Column({ name: 'request_id', type: 'uuid' })
  requestId: string;

  @Column({ name: 'token_hash', type: 'bytea', nullable: true })
  tokenHash: Buffer | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt: Date;

  @Column({ name: 'ended_at', type: 'timestamptz', nullable: true })
  endedAt: Date | null;
}
