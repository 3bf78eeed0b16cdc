import { Column, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';
import { UserEntity } from './user.entity';

/** One of an account's ten recovery codes, kept as its SHA-256; used once. */
@Entity('recovery_codes')
@Index('ux_recovery_codes_user_code', ['userId', 'codeHash'], { unique: true })
export class RecoveryCodeEntity {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'BY DEFAULT' })
  id: string;

  @Column({ name: 'user_id', type: 'integer' })
  @ForeignKey(() => UserEntity, { name: 'recovery_codes_user_id_fkey', onDelete: 'CASCADE' })
  userId: number;

  @Column({ name: 'code_hash', type: 'bytea' })
  codeHash: Buffer;

  @Column({ name: 'used_at', type: 'timestamptz', nullable: true })
  usedAt: Date | null;
}
