import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

@Entity('brands')
export class BrandEntity {
  @PrimaryGeneratedColumn('identity', { generatedIdentity: 'BY DEFAULT' })
  id: number;

  @Column({ type: 'varchar', length: 100 })
  name: string;

  @Column({ type: 'varchar', length: 40, unique: true })
  slug: string;

  /** Where staff notifications of this brand are mailed. */
  @Column({ name: 'staff_email', type: 'varchar', length: 254, nullable: true })
  staffEmail: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  /** The brand's security policy (contract §19): its members' sessions need a second factor. */
  @Column({ name: 'require_second_factor', type: 'boolean', default: false })
  requireSecondFactor: boolean;
}
