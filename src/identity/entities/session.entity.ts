import { Column, CreateDateColumn, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';
import { UserEntity } from './user.entity';

/** Server-side session behind a signed JWT: ending it here ends the token at once. */
@Entity('sessions')
@Index('ix_sessions_user', ['userId'])
export class SessionEntity {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ name: 'user_id', type: 'integer' })
  @ForeignKey(() => UserEntity, { name: 'sessions_user_id_fkey', onDelete: 'CASCADE' })
  userId: number;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt: Date;

  @Column({ name: 'ended_at', type: 'timestamptz', nullable: true })
  endedAt: Date | null;

  /** The client address of the sign-in, then of the last use. */
  @Column({ type: 'varchar', length: 64, nullable: true })
  ip: string | null;

  @Column({ name: 'user_agent', type: 'varchar', length: 512, nullable: true })
  userAgent: string | null;

  /** Moved on at most once a minute (contract §19: it may lag that much), so a request rarely writes. */
  @Column({ name: 'last_seen_at', type: 'timestamptz', default: () => 'now()' })
  lastSeenAt: Date;

  /** When the session last proved its account: its sign-in, then each step-up (recent authentication). */
  @Column({ name: 'authenticated_at', type: 'timestamptz', default: () => 'now()' })
  authenticatedAt: Date;
}
