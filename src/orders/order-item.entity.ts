import { Check, Column, Entity, ForeignKey, PrimaryGeneratedColumn, Unique } from 'typeorm';
import { ProductSizeEntity } from '../catalog/product-size.entity';
import { OrderEntity } from './order.entity';
import { kopeks } from '../database/kopeks.transformer';

@Entity('order_items')
@Unique('uq_order_items_line', ['orderId', 'line'])
// `quantity` (line_quantity: above 0) and `price_kopeks` (kopeks: not below 0) are of checked domains
// (migration OrderPathCheckDomains); a check over two columns stays the table's.
@Check('ck_order_items_returned', `"returned_quantity" >= 0 AND "returned_quantity" <= "quantity"`)
// The line's size is a size of the line's product (which the size's own key makes a product that exists).
@ForeignKey(() => ProductSizeEntity, ['sizeId', 'productId'], ['id', 'productId'], {
  name: 'fk_order_items_size_product',
})
export class OrderItemEntity {
  @PrimaryGeneratedColumn('identity', { generatedIdentity: 'BY DEFAULT' })
  id: number;

  @Column({ name: 'order_id', type: 'integer' })
  @ForeignKey(() => OrderEntity, { name: 'fk_order_items_order', onDelete: 'CASCADE' })
  orderId: number;

  /** Position in the order as received. */
  @Column({ type: 'smallint' })
  line: number;

  @Column({ name: 'product_id', type: 'integer' })
  productId: number;

  @Column({ name: 'size_id', type: 'integer' })
  sizeId: number;

  /** The product's own article at the time of the order. */
  @Column({ type: 'varchar', length: 64 })
  article: string;

  @Column({ name: 'storefront_article', type: 'varchar', length: 64, nullable: true })
  storefrontArticle: string | null;

  @Column({ type: 'varchar', length: 50 })
  size: string;

  @Column({ type: 'integer' })
  quantity: number;

  @Column({ name: 'price_kopeks', type: 'bigint', transformer: kopeks })
  priceKopeks: number;

  @Column({ name: 'line_total_kopeks', type: 'bigint', transformer: kopeks })
  lineTotalKopeks: number;

  /** Units received back through returns, any disposition. */
  @Column({ name: 'returned_quantity', type: 'integer', default: 0 })
  returnedQuantity: number;
}
