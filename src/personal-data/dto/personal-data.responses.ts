import { ApiProperty } from '@nestjs/swagger';
import { ORDER_STATUSES, type OrderStatus } from '../../orders/order.entity';
import { OrderResponse } from '../../orders/dto/order.responses';

export class KeptOrder {
  @ApiProperty() orderId: number;
  @ApiProperty({ enum: ORDER_STATUSES }) status: OrderStatus;
}

export class ErasureResponse {
  @ApiProperty({ type: [Number], description: 'The orders anonymised (in a final state)' }) erased: number[];
  @ApiProperty({ type: [KeptOrder], description: 'The orders still in progress, left as they are' }) kept: KeptOrder[];
}

export class PersonalDataExportResponse {
  @ApiProperty({ type: [OrderResponse] }) orders: OrderResponse[];
}

export class RetentionResponse {
  @ApiProperty({ type: 'integer', nullable: true, minimum: 0, maximum: 3650 }) days: number | null;
}
