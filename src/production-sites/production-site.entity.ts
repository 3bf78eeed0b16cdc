import { Column, CreateDateColumn, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';
import { BrandEntity } from '../identity/entities/brand.entity';

/** A workshop that makes the brand's goods; it reaches the production API with its site keys. */
@Entity('production_sites')
@Index('ix_production_sites_brand', ['brandId'])
export class ProductionSiteEntity {
  @PrimaryGeneratedColumn('identity', { generatedIdentity: 'BY DEFAULT' })
  id: number;

  @Column({ name: 'brand_id', type: 'integer' })
  @ForeignKey(() => BrandEntity, { name: 'fk_production_sites_brand', onDelete: 'CASCADE' })
  brandId: number;

  @Column({ type: 'varchar', length: 100 })
  name: string;

  /** A switched-off site's keys stop working (within the site-key cache time). */
  @Column({ type: 'boolean', default: true })
  active: boolean;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
