import { Column, CreateDateColumn, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';
import { UserEntity } from './user.entity';

/** A WebAuthn credential of an account: its public key and the signature counter last seen. */
@Entity('passkeys')
@Index('ux_passkeys_credential', ['credentialId'], { unique: true })
@Index('ix_passkeys_user', ['userId'])
export class PasskeyEntity {
  @PrimaryGeneratedColumn('identity', { generatedIdentity: 'BY DEFAULT' })
  id: number;

  @Column({ name: 'user_id', type: 'integer' })
  @ForeignKey(() => UserEntity, { name: 'passkeys_user_id_fkey', onDelete: 'CASCADE' })
  userId: number;

  /** base64url, as WebAuthn's JSON forms carry it (at most 1023 bytes, so 1366 characters). */
  @Column({ name: 'credential_id', type: 'varchar', length: 1366 })
  credentialId: string;

  /** The COSE public key. */
  @Column({ name: 'public_key', type: 'bytea' })
  publicKey: Buffer;

  @Column({ type: 'bigint', default: 0 })
  counter: string;

  @Column({ type: 'text', array: true, default: () => "'{}'" })
  transports: string[];

  @Column({ type: 'varchar', length: 100 })
  name: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'last_used_at', type: 'timestamptz', nullable: true })
  lastUsedAt: Date | null;
}
