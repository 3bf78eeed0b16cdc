import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { CARRIER_STATUSES } from '../carrier-status';
import {
  ORDER_SOURCES,
  ORDER_STATUSES,
  PAYMENT_STATUSES,
  type OrderSource,
  type OrderStatus,
  type PaymentStatus,
} from '../order.entity';

const nullableText = { type: String, nullable: true } as const;
const nullableTime = { type: String, format: 'date-time', nullable: true } as const;

/** What a line of the list and the full order both say. */
class OrderHead {
  @ApiProperty() id: number;
  @ApiProperty() orderNumber: string;
  @ApiProperty({ enum: ORDER_SOURCES }) source: OrderSource;
  @ApiProperty(nullableText) partnerOrderId: string | null;
  @ApiProperty({ enum: ORDER_STATUSES }) status: OrderStatus;
  @ApiProperty({ enum: PAYMENT_STATUSES }) paymentStatus: PaymentStatus;
  @ApiProperty({ enum: [...CARRIER_STATUSES, null], nullable: true }) deliveryStatus: string | null;
  @ApiProperty() stockShortage: boolean;
  @ApiProperty() totalKopeks: number;
  @ApiProperty({ format: 'date-time' }) orderedAt: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time', description: 'The last change of state: status, payment or delivery' })
  updatedAt: string;
  @ApiProperty({ ...nullableTime, description: "When the buyer's personal data was anonymised (contract §17)" })
  personalDataErasedAt: string | null;
}

export class OrderSummary extends OrderHead {
  @ApiProperty() recipientName: string;
}

export class OrderListResponse {
  @ApiProperty({ type: [OrderSummary] }) items: OrderSummary[];
  @ApiProperty({ description: "The number of the brand's orders that the filters keep (all of them without filters)" })
  total: number;
}

export class OrderItemResponse {
  @ApiProperty({ description: 'The orderItemId that returns name' }) id: number;
  @ApiProperty() productId: number;
  @ApiProperty() sizeId: number;
  @ApiProperty() article: string;
  @ApiProperty(nullableText) storefrontArticle: string | null;
  @ApiProperty() size: string;
  @ApiProperty() quantity: number;
  @ApiProperty() priceKopeks: number;
  @ApiProperty() lineTotalKopeks: number;
  @ApiProperty({ description: 'Units received back through returns so far' }) returnedQuantity: number;
}

export class OrderRecipient {
  @ApiProperty() fullName: string;
  @ApiProperty(nullableText) surname: string | null;
  @ApiProperty(nullableText) firstName: string | null;
  @ApiProperty(nullableText) patronymic: string | null;
  @ApiProperty() phone: string;
  @ApiProperty(nullableText) email: string | null;
}

export class OrderDelivery {
  @ApiProperty() city: string;
  @ApiProperty({ type: Number, nullable: true }) cityCode: number | null;
  @ApiProperty(nullableText) pvzCode: string | null;
  @ApiProperty(nullableText) pvzAddress: string | null;
}

export class OrderResponse extends OrderHead {
  @ApiProperty() hash: string;
  @ApiProperty() itemsTotalKopeks: number;
  @ApiProperty() deliveryCostKopeks: number;
  @ApiProperty(nullableText) promoCode: string | null;
  @ApiProperty(nullableText) comment: string | null;
  @ApiProperty({ type: OrderRecipient }) recipient: OrderRecipient;
  @ApiProperty({ type: OrderDelivery }) delivery: OrderDelivery;
  @ApiProperty(nullableText) carrierOrderUuid: string | null;
  @ApiProperty(nullableText) carrierTrackingNumber: string | null;
  @ApiProperty(nullableText) waybillUrl: string | null;
  @ApiProperty(nullableTime) paidAt: string | null;
  @ApiProperty(nullableTime) carrierRegistrationFailedAt: string | null;
  @ApiProperty({ type: [OrderItemResponse] }) items: OrderItemResponse[];
}

export class PlatformOrderResponse {
  @ApiProperty({ type: OrderResponse }) order: OrderResponse;
}

export class AcceptedOrderRef {
  @ApiProperty() id: number;
  @ApiProperty() orderNumber: string;
  @ApiProperty() hash: string;
  @ApiProperty() totalKopeks: number;
}

export class PartnerWebhookResponse {
  @ApiProperty({ enum: [true] }) ok: true;
  @ApiProperty({ description: 'True when the brand already had this partnerOrderId: nothing was written' })
  duplicate: boolean;
  @ApiProperty({ type: AcceptedOrderRef }) order: AcceptedOrderRef;
  @ApiPropertyOptional({ enum: [true], description: 'A repeat whose body differs from the first' })
  bodyMismatch?: true;
}
