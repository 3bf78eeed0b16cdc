import { ApiProperty } from '@nestjs/swagger';
import { EventData } from '../../domain-events/dto/event-data';
import { CARRIER_STATUSES } from '../carrier-status';
import {
  ORDER_SOURCES,
  ORDER_STATUSES,
  PAYMENT_STATUSES,
  type OrderSource,
  type OrderStatus,
  type PaymentStatus,
} from '../order.entity';

/** The data of every `order.*` event (contract §10): the order as the change left it. */
export class OrderEventData extends EventData {
  @ApiProperty({ type: 'integer' }) orderId: number;
  @ApiProperty() orderNumber: string;
  @ApiProperty({ type: String, nullable: true }) partnerOrderId: string | null;
  @ApiProperty({ enum: ORDER_SOURCES }) source: OrderSource;
  @ApiProperty({ enum: ORDER_STATUSES }) status: OrderStatus;
  @ApiProperty({ enum: PAYMENT_STATUSES }) paymentStatus: PaymentStatus;
  @ApiProperty({ enum: [...CARRIER_STATUSES, null], nullable: true }) deliveryStatus: string | null;
  @ApiProperty({ type: String, nullable: true }) carrierTrackingNumber: string | null;
  @ApiProperty({ type: 'integer' }) totalKopeks: number;
}
