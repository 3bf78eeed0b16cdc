import { Column, Entity, ForeignKey, PrimaryColumn } from 'typeorm';

/** Each brand's last return number: returns are numbered per brand. */
@Entity('return_numbers')
export class ReturnNumberEntity {
  @PrimaryColumn({ name: 'brand_id', type: 'integer' })
  @ForeignKey('BrandEntity', { name: 'fk_return_numbers_brand', onDelete: 'CASCADE' })
  brandId: number;

  @Column({ type: 'integer' })
  last: number;
}
