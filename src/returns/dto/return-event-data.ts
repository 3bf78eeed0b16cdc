import { ApiProperty } from '@nestjs/swagger';
import { EventData } from '../../domain-events/dto/event-data';
import {
  REFUND_STATUSES,
  RETURN_ORIGINS,
  RETURN_STATUSES,
  type RefundStatus,
  type ReturnOrigin,
  type ReturnStatus,
} from '../return-states';

/** The data of every `return.*` event (contract §10): the return as the change left it. */
export class ReturnEventData extends EventData {
  @ApiProperty({ type: 'integer' }) returnId: number;
  @ApiProperty() returnNumber: string;
  @ApiProperty({ type: 'integer' }) orderId: number;
  @ApiProperty() externalReturnId: string;
  @ApiProperty({ enum: RETURN_ORIGINS }) origin: ReturnOrigin;
  @ApiProperty({ enum: RETURN_STATUSES }) status: ReturnStatus;
  @ApiProperty({ enum: REFUND_STATUSES }) refundStatus: RefundStatus;
}
