import { Column, CreateDateColumn, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';
import type { StockReason } from './dto/stock-reason';

/**
 * The stock ledger: append-only; a size's stock is the sum of its deltas. Its rows point at the
 * sizes, orders and acceptances of the modules that use the ledger, so those entities are named
 * rather than imported: a foreign key is the database's link, and importing them would tie the
 * ledger's folder and theirs into a cycle.
 */
@Entity('stock_movements')
// `delta` (stock_delta: not 0) and `reason` (stock_reason: a StockReason) are of checked domains
// (migration OrderPathCheckDomains).
@Index('ix_stock_movements_size', ['sizeId', 'id'])
@ForeignKey('ProductSizeEntity', ['sizeId', 'brandId'], ['id', 'brandId'], {
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
  @ForeignKey('OrderEntity', { name: 'fk_stock_movements_order' })
  orderId: number | null;

  @Column({ name: 'acceptance_id', type: 'integer', nullable: true })
  @ForeignKey('AcceptanceEntity', { name: 'fk_stock_movements_acceptance' })
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
