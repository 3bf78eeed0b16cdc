import { Column, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import type { BrandPermission } from '../../common/context/permissions';

@Entity('memberships')
export class MembershipEntity {
  @PrimaryColumn({ name: 'brand_id', type: 'integer' })
  brandId: number;

  @PrimaryColumn({ name: 'user_id', type: 'integer' })
  userId: number;

  @Column({ type: 'text', array: true })
  permissions: BrandPermission[];

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
