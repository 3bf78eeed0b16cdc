import { Check, Column, CreateDateColumn, Entity, ForeignKey, Index, PrimaryGeneratedColumn, Unique } from 'typeorm';
import { ProductEntity } from './product.entity';
import { kopeks } from '../database/kopeks.transformer';

/** A legacy size of a product, with its stock. */
@Entity('product_sizes')
@Unique('uq_product_sizes_name', ['productId', 'nameKey'])
// The target of the ledger's (size, brand) key: a ledger row cannot name a size of another brand.
@Unique('uq_product_sizes_id_brand', ['id', 'brandId'])
// The target of order lines' (size, product) key: a line's size is a size of its product.
@Unique('uq_product_sizes_id_product', ['id', 'productId'])
@Check('ck_product_sizes_name_key', `"name_key" = lower("name")`)
// `price_kopeks` is of the domain kopeks: not below 0 (migration OrderPathCheckDomains).
@Index('ix_product_sizes_brand', ['brandId'])
export class ProductSizeEntity {
  @PrimaryGeneratedColumn('identity', { generatedIdentity: 'BY DEFAULT' })
  id: number;

  @Column({ name: 'product_id', type: 'integer' })
  @ForeignKey(() => ProductEntity, { name: 'fk_product_sizes_product', onDelete: 'CASCADE' })
  productId: number;

  /** The product's brand, kept here so stock queries scope by brand without a join. */
  @Column({ name: 'brand_id', type: 'integer' })
  brandId: number;

  @Column({ type: 'varchar', length: 50 })
  name: string;

  @Column({ name: 'name_key', type: 'varchar', length: 50 })
  nameKey: string;

  @Column({ name: 'price_kopeks', type: 'bigint', nullable: true, transformer: kopeks })
  priceKopeks: number | null;

  /** Changed only together with a stock_movements row. May go below zero (paid orders are accepted). */
  @Column({ type: 'integer', default: 0 })
  stock: number;

  /** How many `stock.changed` events the size has (contract §16): the ledger's update numbers the next. */
  @Column({ name: 'stock_events', type: 'integer', default: 0 })
  stockEvents: number;

  /** The position of the size's last stock event (0 before any): the next one's is at least this. */
  @Column({ name: 'stock_event_position', type: 'bigint', default: 0 })
  stockEventPosition: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
