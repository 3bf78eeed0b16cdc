import { ApiProperty } from '@nestjs/swagger';
import {
  REASON_CODES,
  REFUND_STATUSES,
  RETURN_ORIGINS,
  RETURN_STATUSES,
  type ReasonCode,
  type RefundStatus,
  type ReturnOrigin,
  type ReturnStatus,
} from '../return-states';

const time = { format: 'date-time' } as const;
const nullableTime = { type: String, format: 'date-time', nullable: true } as const;

export class ReturnItemResponse {
  @ApiProperty({ description: 'The returnItemId a receipt names' }) id: number;
  @ApiProperty() orderItemId: number;
  @ApiProperty() productId: number;
  @ApiProperty() sizeId: number;
  @ApiProperty() article: string;
  @ApiProperty() size: string;
  @ApiProperty() quantity: number;
  @ApiProperty() receivedQuantity: number;
  @ApiProperty() restockedQuantity: number;
  @ApiProperty() priceKopeks: number;
}

export class ReturnResponse {
  @ApiProperty() id: number;
  @ApiProperty({ description: 'Numbered per brand' }) returnNumber: string;
  @ApiProperty() orderId: number;
  @ApiProperty() orderNumber: string;
  @ApiProperty() externalReturnId: string;
  @ApiProperty({ enum: RETURN_ORIGINS }) origin: ReturnOrigin;
  @ApiProperty({ enum: RETURN_STATUSES }) status: ReturnStatus;
  @ApiProperty({ enum: REASON_CODES }) reasonCode: ReasonCode;
  @ApiProperty({ type: String, nullable: true }) reasonNote: string | null;
  @ApiProperty({ type: [ReturnItemResponse] }) items: ReturnItemResponse[];
  @ApiProperty() refundKopeks: number;
  @ApiProperty({ enum: REFUND_STATUSES }) refundStatus: RefundStatus;
  @ApiProperty(time) createdAt: string;
  @ApiProperty(nullableTime) approvedAt: string | null;
  @ApiProperty(nullableTime) receivedAt: string | null;
  @ApiProperty(nullableTime) closedAt: string | null;
  @ApiProperty(nullableTime) canceledAt: string | null;
}

export class CreatedReturnResponse {
  @ApiProperty({ description: 'True when the brand already had this externalReturnId: nothing was created' })
  duplicate: boolean;
  @ApiProperty({ type: ReturnResponse }) return: ReturnResponse;
}

export class ReturnListResponse {
  @ApiProperty({ type: [ReturnResponse] }) items: ReturnResponse[];
  @ApiProperty({ description: 'How many returns match the filters' }) total: number;
}
