import { Check, Column, CreateDateColumn, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';
import { ProductSizeEntity } from '../catalog/product-size.entity';
import { OrderEntity } from '../orders/order.entity';
import { AcceptanceEntity } from './acceptance.entity';

export type StockReason = 'initial' | 'order' | 'acceptance' | 'adjustment';

/** The stock ledger: append-only; a size's stock is the sum of its deltas. */
@Entity('stock_movements')
@Check('ck_stock_movements_delta', `"delta" <> 0`)
@Check('ck_stock_movements_reason', `"reason" IN ('initial', 'order', 'acceptance', 'adjustment')`)
@Index('ix_stock_movements_size', ['sizeId', 'id'])
@Index('ix_stock_movements_order', ['orderId'])
@ForeignKey(() => ProductSizeEntity, ['sizeId', 'brandId'], ['id', 'brandId'], {
  name: 'fk_stock_movements_size_brand',
})
export class StockMovementEntity {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'BY DEFAULT' })
  id: string;

  @Column({ name: 'brand_id', type: 'integer' })
  brandId: number;

  @Column({ name: 'size_id', type: 'integer' })
  sizeId: number;

  @Column({ type: 'integer' })
  delta: number;

  @Column({ type: 'varchar', length: 16 })
  reason: StockReason;

  @Column({ name: 'order_id', type: 'integer', nullable: true })
  @ForeignKey(() => OrderEntity, { name: 'fk_stock_movements_order' })
  orderId: number | null;

  @Column({ name: 'acceptance_id', type: 'integer', nullable: true })
  @ForeignKey(() => AcceptanceEntity, { name: 'fk_stock_movements_acceptance' })
  acceptanceId: number | null;

  @Column({ type: 'varchar', length: 500, nullable: true })
  note: string | null;

  @Column({ name: 'actor_kind', type: 'varchar', length: 20, nullable: true })
  actorKind: string | null;

  @Column({ name: 'actor_id', type: 'integer', nullable: true })
  actorId: number | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
