import { Check, Column, Entity, ForeignKey, Index, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import { BrandEntity } from './brand.entity';
import { UserEntity } from './user.entity';
import type { BrandPermission } from '../../common/context/permissions';

@Entity('memberships')
@Check('ck_memberships_not_empty', `cardinality("permissions") > 0`)
@Index('ix_memberships_user', ['userId'])
export class MembershipEntity {
  @PrimaryColumn({ name: 'brand_id', type: 'integer' })
  @ForeignKey(() => BrandEntity, { name: 'memberships_brand_id_fkey', onDelete: 'CASCADE' })
  brandId: number;

  @PrimaryColumn({ name: 'user_id', type: 'integer' })
  @ForeignKey(() => UserEntity, { name: 'memberships_user_id_fkey', onDelete: 'CASCADE' })
  userId: number;

  @Column({ type: 'text', array: true })
  permissions: BrandPermission[];

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
