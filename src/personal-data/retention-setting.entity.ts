import { Check, Column, Entity, ForeignKey, PrimaryColumn } from 'typeorm';
import { BrandEntity } from '../identity/entities/brand.entity';

/** A brand's retention of buyers' data (contract §17): `days` null keeps it until erased. */
@Entity('personal_data_retention')
@Check('ck_personal_data_retention_days', `"days" IS NULL OR ("days" >= 0 AND "days" <= 3650)`)
export class RetentionSettingEntity {
  @PrimaryColumn({ name: 'brand_id', type: 'integer', primaryKeyConstraintName: 'PK_personal_data_retention' })
  @ForeignKey(() => BrandEntity, { name: 'fk_personal_data_retention_brand', onDelete: 'CASCADE' })
  brandId: number;

  @Column({ type: 'integer', nullable: true })
  days: number | null;

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updatedAt: Date;
}
