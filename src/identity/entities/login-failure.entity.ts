import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

@Entity('login_failures')
@Index('ix_login_failures_email_at', ['email', 'attemptedAt'])
@Index('ix_login_failures_at', ['attemptedAt'])
export class LoginFailureEntity {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'BY DEFAULT' })
  id: string;

  @Column({ type: 'varchar', length: 254 })
  email: string;

  @Column({ name: 'attempted_at', type: 'timestamptz', default: () => 'now()' })
  attemptedAt: Date;
}
