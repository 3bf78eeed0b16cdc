import { Column, CreateDateColumn, Entity, ForeignKey, PrimaryColumn } from 'typeorm';
import { UserEntity } from './user.entity';

/**
 * An account's authenticator app (RFC 6238). The secret is sealed (AES-256-GCM, as webhook
 * secrets are); it counts as a second factor once confirmed. `last_used_step` is the newest time
 * step a code was accepted for: a code is accepted only for a later one, so it works once.
 */
@Entity('totp_authenticators')
export class TotpAuthenticatorEntity {
  @PrimaryColumn({ name: 'user_id', type: 'integer' })
  @ForeignKey(() => UserEntity, { name: 'totp_authenticators_user_id_fkey', onDelete: 'CASCADE' })
  userId: number;

  @Column({ name: 'secret_sealed', type: 'bytea' })
  secretSealed: Buffer;

  @Column({ name: 'confirmed_at', type: 'timestamptz', nullable: true })
  confirmedAt: Date | null;

  @Column({ name: 'last_used_step', type: 'bigint', default: 0 })
  lastUsedStep: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
