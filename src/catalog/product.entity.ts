import {
  Check,
  Column,
  CreateDateColumn,
  Entity,
  ForeignKey,
  PrimaryGeneratedColumn,
  Unique,
  UpdateDateColumn,
} from 'typeorm';
import { BrandEntity } from '../identity/entities/brand.entity';
import { kopeks } from '../database/kopeks.transformer';

@Entity('products')
@Unique('uq_products_article', ['brandId', 'article'])
@Unique('uq_products_storefront_article', ['brandId', 'storefrontArticle'])
@Check('ck_products_price', `"price_kopeks" >= 0`)
export class ProductEntity {
  @PrimaryGeneratedColumn('identity', { generatedIdentity: 'BY DEFAULT' })
  id: number;

  @Column({ name: 'brand_id', type: 'integer' })
  @ForeignKey(() => BrandEntity, { name: 'fk_products_brand' })
  brandId: number;

  @Column({ type: 'varchar', length: 200 })
  name: string;

  /** The platform's own article. */
  @Column({ type: 'varchar', length: 64 })
  article: string;

  /** The separate field the storefront webhook matches; never the name. */
  @Column({ name: 'storefront_article', type: 'varchar', length: 64, nullable: true })
  storefrontArticle: string | null;

  @Column({ name: 'price_kopeks', type: 'bigint', transformer: kopeks })
  priceKopeks: number;

  @Column({ type: 'jsonb', default: () => "'{}'" })
  attributes: Record<string, unknown>;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
