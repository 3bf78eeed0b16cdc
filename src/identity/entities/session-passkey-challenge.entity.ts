import { Check, Column, Entity, ForeignKey, PrimaryColumn } from 'typeorm';
import { SessionEntity } from './session.entity';

/** The WebAuthn challenge a session was last given, to register a passkey or to step up with one. */
@Entity('session_passkey_challenges')
@Check('ck_session_passkey_challenges_purpose', `"purpose" IN ('register', 'step_up')`)
export class SessionPasskeyChallengeEntity {
  @PrimaryColumn({ name: 'session_id', type: 'uuid' })
  @ForeignKey(() => SessionEntity, { name: 'session_passkey_challenges_session_id_fkey', onDelete: 'CASCADE' })
  sessionId: string;

  @PrimaryColumn({ type: 'varchar', length: 10 })
  purpose: 'register' | 'step_up';

  @Column({ type: 'varchar', length: 128 })
  challenge: string;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt: Date;
}
