import { Column, CreateDateColumn, Entity, ForeignKey, Index, PrimaryGeneratedColumn, Unique } from 'typeorm';
import { BrandEntity } from '../identity/entities/brand.entity';
import { kopeks } from '../database/kopeks.transformer';

export const ORDER_SOURCES = ['storefront', 'platform'] as const;
export type OrderSource = (typeof ORDER_SOURCES)[number];
export const ORDER_STATUSES = ['new', 'paid', 'shipped', 'completed', 'returned', 'cancelled'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];
export const PAYMENT_STATUSES = ['pending', 'paid'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

@Entity('orders')
@Unique('uq_orders_partner_order', ['brandId', 'partnerOrderId'])
// `source` is of the domain order_source, which keeps it to ORDER_SOURCES (migration OrderPathCheckDomains).
@Index('ix_orders_brand_id', ['brandId', 'id'])
// The order list's `status` filter and its total (contract §16, §21: migration DataThatGrows).
@Index('ix_orders_brand_status', ['brandId', 'status', 'id'])
// A buyer's orders by phone and e-mail, for erasure and export (§17, §21); the text as sent is btrim'd, an expression.
@Index('ix_orders_brand_phone', ['brandId', 'recipientPhoneNormalized'], {
  where: '"recipient_phone_normalized" IS NOT NULL',
})
@Index('ix_orders_brand_phone_as_sent', { synchronize: false })
@Index('ix_orders_brand_email', ['brandId', 'recipientEmail'], { where: '"recipient_email" IS NOT NULL' })
// The order list's `updatedSince` (contract §16).
@Index('ix_orders_brand_updated', ['brandId', 'updatedAt'])
// The orders the personal-data retention may anonymise (contract §17).
@Index('ix_orders_retention_due', ['brandId', 'updatedAt'], {
  where: `"personal_data_erased_at" IS NULL AND "status" IN ('completed', 'returned', 'cancelled')`,
})
// Partial: most storefront orders arrive without carrier data and need no entry (migration 1763770700000).
@Index('ix_orders_carrier_uuid', ['carrierOrderUuid'], { where: '"carrier_order_uuid" IS NOT NULL' })
@Index('ix_orders_carrier_tracking', ['carrierTrackingNumber'], { where: '"carrier_tracking_number" IS NOT NULL' })
export class OrderEntity {
  @PrimaryGeneratedColumn('identity', { generatedIdentity: 'BY DEFAULT' })
  id: number;

  @Column({ name: 'brand_id', type: 'integer' })
  @ForeignKey(() => BrandEntity, { name: 'fk_orders_brand' })
  brandId: number;

  @Column({ name: 'order_number', type: 'varchar', length: 32, unique: true })
  orderNumber: string;

  /** Unguessable token of the buyer's tracking link. */
  @Column({ type: 'varchar', length: 64, unique: true })
  hash: string;

  @Column({ type: 'varchar', length: 16 })
  source: OrderSource;

  @Column({ name: 'partner_order_id', type: 'varchar', length: 100, nullable: true })
  partnerOrderId: string | null;

  @Column({ type: 'varchar', length: 16 })
  status: OrderStatus;

  @Column({ name: 'payment_status', type: 'varchar', length: 16 })
  paymentStatus: PaymentStatus;

  @Column({ name: 'delivery_status', type: 'varchar', length: 32, nullable: true })
  deliveryStatus: string | null;

  @Column({ name: 'stock_shortage', type: 'boolean', default: false })
  stockShortage: boolean;

  /** Added to its brand's order count by the statement that wrote it; false: by the insert trigger (order-count.sql.ts). */
  @Column({ type: 'boolean', default: false, select: false })
  counted: boolean;

  @Column({ name: 'ordered_at', type: 'timestamptz' })
  orderedAt: Date;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  /** The last change of state (status, payment, delivery): OrderLifecycle's statements set it. */
  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updatedAt: Date;

  @Column({ name: 'items_total_kopeks', type: 'bigint', transformer: kopeks })
  itemsTotalKopeks: number;

  @Column({ name: 'delivery_cost_kopeks', type: 'bigint', default: 0, transformer: kopeks })
  deliveryCostKopeks: number;

  @Column({ name: 'total_kopeks', type: 'bigint', transformer: kopeks })
  totalKopeks: number;

  @Column({ name: 'promo_code', type: 'varchar', length: 100, nullable: true })
  promoCode: string | null;

  @Column({ type: 'text', nullable: true })
  comment: string | null;

  @Column({ name: 'recipient_full_name', type: 'varchar', length: 300 })
  recipientFullName: string;

  @Column({ name: 'recipient_surname', type: 'varchar', length: 100, nullable: true })
  recipientSurname: string | null;

  @Column({ name: 'recipient_first_name', type: 'varchar', length: 100, nullable: true })
  recipientFirstName: string | null;

  @Column({ name: 'recipient_patronymic', type: 'varchar', length: 100, nullable: true })
  recipientPatronymic: string | null;

  /** As the storefront sent it. */
  @Column({ name: 'recipient_phone', type: 'varchar', length: 50 })
  recipientPhone: string;

  /** E.164 when the number could be parsed. */
  @Column({ name: 'recipient_phone_normalized', type: 'varchar', length: 20, nullable: true })
  recipientPhoneNormalized: string | null;

  @Column({ name: 'recipient_email', type: 'varchar', length: 254, nullable: true })
  recipientEmail: string | null;

  @Column({ name: 'delivery_city', type: 'varchar', length: 200, default: '' })
  deliveryCity: string;

  @Column({ name: 'delivery_city_code', type: 'integer', nullable: true })
  deliveryCityCode: number | null;

  @Column({ name: 'delivery_pvz_code', type: 'varchar', length: 64, nullable: true })
  deliveryPvzCode: string | null;

  @Column({ name: 'delivery_pvz_address', type: 'varchar', length: 500, nullable: true })
  deliveryPvzAddress: string | null;

  @Column({ name: 'carrier_order_uuid', type: 'varchar', length: 64, nullable: true })
  carrierOrderUuid: string | null;

  @Column({ name: 'carrier_tracking_number', type: 'varchar', length: 64, nullable: true })
  carrierTrackingNumber: string | null;

  @Column({ name: 'waybill_url', type: 'varchar', length: 2048, nullable: true })
  waybillUrl: string | null;

  /** Set once, in the transaction that deducted the order's stock: deduction happens exactly once. */
  @Column({ name: 'stock_deducted_at', type: 'timestamptz', nullable: true })
  stockDeductedAt: Date | null;

  @Column({ name: 'paid_at', type: 'timestamptz', nullable: true })
  paidAt: Date | null;

  /** occurredAt of the carrier event last applied: older events change nothing. */
  @Column({ name: 'delivery_status_at', type: 'timestamptz', nullable: true })
  deliveryStatusAt: Date | null;

  /** Set when the carrier refused the shipment for 24 hours; staff are mailed. */
  @Column({ name: 'carrier_registration_failed_at', type: 'timestamptz', nullable: true })
  carrierRegistrationFailedAt: Date | null;

  /**
   * Set while a shipment registration is under way (the carrier is being called), cleared when
   * it fails: an order being registered can no longer be cancelled.
   */
  @Column({ name: 'carrier_registration_started_at', type: 'timestamptz', nullable: true })
  carrierRegistrationStartedAt: Date | null;

  @Column({ name: 'cancelled_at', type: 'timestamptz', nullable: true })
  cancelledAt: Date | null;

  @Column({ name: 'cancel_reason', type: 'varchar', length: 500, nullable: true })
  cancelReason: string | null;

  /** When the buyer's data was anonymised (contract §17); the personal-data module's erasure sets it. */
  @Column({ name: 'personal_data_erased_at', type: 'timestamptz', nullable: true })
  personalDataErasedAt: Date | null;

  /** SHA-256 of the storefront's request, to tell a true retry from a reused order number. */
  @Column({ name: 'request_fingerprint', type: 'char', length: 64, nullable: true })
  requestFingerprint: string | null;
}
