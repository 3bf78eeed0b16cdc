import { Check, Column, CreateDateColumn, Entity, ForeignKey, Index, PrimaryGeneratedColumn, Unique } from 'typeorm';
import type { ReasonCode, RefundStatus, ReturnOrigin, ReturnStatus } from './return-states';
import { kopeks } from '../database/kopeks.transformer';

/** A return of some of an order's units (contract §9). */
@Entity('returns')
@Unique('uq_returns_external_id', ['brandId', 'externalReturnId'])
@Unique('uq_returns_number', ['brandId', 'returnNumber'])
@Check(
  'ck_returns_status',
  `"status" IN ('requested', 'approved', 'declined', 'in_transit', 'partially_received', 'received', 'closed', 'canceled')`,
)
@Check('ck_returns_origin', `"origin" IN ('customer', 'carrier')`)
@Check(
  'ck_returns_reason',
  `"reason_code" IN ('changed_mind', 'defective', 'wrong_item', 'wrong_size', 'not_as_described', 'not_delivered', 'other')`,
)
@Check('ck_returns_refund_status', `"refund_status" IN ('pending', 'refunded', 'not_required')`)
@Check('ck_returns_refund', `"refund_kopeks" >= 0`)
@Index('ix_returns_brand', ['brandId', 'id'])
// The list's `status` filter and its total (contract §21: migration DataThatGrows).
@Index('ix_returns_brand_status', ['brandId', 'status', 'id'])
@Index('ix_returns_order', ['orderId'])
export class ReturnEntity {
  @PrimaryGeneratedColumn('identity', { generatedIdentity: 'BY DEFAULT' })
  id: number;

  @Column({ name: 'brand_id', type: 'integer' })
  @ForeignKey('BrandEntity', { name: 'fk_returns_brand' })
  brandId: number;

  /** Numbered per brand: R-000001, R-000002, … */
  @Column({ name: 'return_number', type: 'varchar', length: 20 })
  returnNumber: string;

  @Column({ name: 'order_id', type: 'integer' })
  @ForeignKey('OrderEntity', { name: 'fk_returns_order' })
  orderId: number;

  /** The order's number, copied (it never changes) so a return reads without the orders table. */
  @Column({ name: 'order_number', type: 'varchar', length: 32 })
  orderNumber: string;

  @Column({ name: 'external_return_id', type: 'varchar', length: 100 })
  externalReturnId: string;

  @Column({ type: 'varchar', length: 16 })
  origin: ReturnOrigin;

  @Column({ type: 'varchar', length: 24 })
  status: ReturnStatus;

  @Column({ name: 'reason_code', type: 'varchar', length: 32 })
  reasonCode: ReasonCode;

  @Column({ name: 'reason_note', type: 'varchar', length: 1000, nullable: true })
  reasonNote: string | null;

  /** What is to be refunded; once refunded, what was. */
  @Column({ name: 'refund_kopeks', type: 'bigint', transformer: kopeks })
  refundKopeks: number;

  @Column({ name: 'refund_status', type: 'varchar', length: 16 })
  refundStatus: RefundStatus;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'approved_at', type: 'timestamptz', nullable: true })
  approvedAt: Date | null;

  @Column({ name: 'declined_at', type: 'timestamptz', nullable: true })
  declinedAt: Date | null;

  @Column({ name: 'received_at', type: 'timestamptz', nullable: true })
  receivedAt: Date | null;

  @Column({ name: 'closed_at', type: 'timestamptz', nullable: true })
  closedAt: Date | null;

  @Column({ name: 'canceled_at', type: 'timestamptz', nullable: true })
  canceledAt: Date | null;

  @Column({ name: 'refunded_at', type: 'timestamptz', nullable: true })
  refundedAt: Date | null;
}
