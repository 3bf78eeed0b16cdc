import { Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';
import { UserEntity } from './user.entity';

/**
 * The second step of a sign-in (contract §19): the challenge token, kept as its SHA-256, lives
 * LOGIN_CHALLENGE_SECONDS and five wrong answers; a passkey answer is checked against the WebAuthn
 * challenge its request options carried.
 */
@Entity('login_challenges')
@Index('ix_login_challenges_user', ['userId'])
export class LoginChallengeEntity {
  @PrimaryColumn({ name: 'token_hash', type: 'bytea' })
  tokenHash: Buffer;

  @Column({ name: 'user_id', type: 'integer' })
  @ForeignKey(() => UserEntity, { name: 'login_challenges_user_id_fkey', onDelete: 'CASCADE' })
  userId: number;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt: Date;

  @Column({ type: 'smallint', default: 0 })
  failures: number;

  @Column({ name: 'passkey_challenge', type: 'varchar', length: 128, nullable: true })
  passkeyChallenge: string | null;

  @Column({ name: 'ended_at', type: 'timestamptz', nullable: true })
  endedAt: Date | null;
}
