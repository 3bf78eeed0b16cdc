import { Check, Column, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';
import { ReturnEntity } from './return.entity';
import { kopeks } from '../database/kopeks.transformer';

/** A line of a return: some units of one order line, and how many of them came back. */
@Entity('return_items')
@Check('ck_return_items_quantity', `"quantity" > 0`)
@Check('ck_return_items_received', `"received_quantity" >= 0 AND "received_quantity" <= "quantity"`)
@Check('ck_return_items_restocked', `"restocked_quantity" >= 0 AND "restocked_quantity" <= "received_quantity"`)
@Index('ix_return_items_return', ['returnId'])
@Index('ix_return_items_order_item', ['orderItemId'])
export class ReturnItemEntity {
  @PrimaryGeneratedColumn('identity', { generatedIdentity: 'BY DEFAULT' })
  id: number;

  @Column({ name: 'return_id', type: 'integer' })
  @ForeignKey(() => ReturnEntity, { name: 'fk_return_items_return', onDelete: 'CASCADE' })
  returnId: number;

  @Column({ name: 'order_item_id', type: 'integer' })
  @ForeignKey('OrderItemEntity', { name: 'fk_return_items_order_item' })
  orderItemId: number;

  @Column({ name: 'product_id', type: 'integer' })
  productId: number;

  @Column({ name: 'size_id', type: 'integer' })
  sizeId: number;

  @Column({ type: 'varchar', length: 64 })
  article: string;

  @Column({ type: 'varchar', length: 50 })
  size: string;

  @Column({ type: 'integer' })
  quantity: number;

  @Column({ name: 'received_quantity', type: 'integer', default: 0 })
  receivedQuantity: number;

  @Column({ name: 'restocked_quantity', type: 'integer', default: 0 })
  restockedQuantity: number;

  @Column({ name: 'price_kopeks', type: 'bigint', transformer: kopeks })
  priceKopeks: number;
}
