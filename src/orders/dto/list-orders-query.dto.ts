import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsString, Length } from 'class-validator';
import { OptionalNotNull } from '../../common/validation/field-decorators';
import { PageQueryDto } from '../../common/validation/dto/page-query.dto';
import { QueryInstant } from '../../common/validation/query-instant.decorator';
import { ORDER_STATUSES, type OrderStatus } from '../order.entity';

const partnerOrderIdText = 'partnerOrderId must be one text of 1 to 100 characters';

/** `GET /orders/admin/all`: the page (§21), and the filters of contract §16, combined with AND. */
export class ListOrdersQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ enum: ORDER_STATUSES, description: 'Only orders in this status' })
  @OptionalNotNull()
  @IsIn(ORDER_STATUSES, { message: `status must be one of ${ORDER_STATUSES.join(', ')}` })
  status?: OrderStatus;

  @ApiPropertyOptional({ description: 'Only the order with this storefront order number (exact)', example: 'T-10025' })
  @OptionalNotNull()
  @IsString({ message: partnerOrderIdText })
  @Length(1, 100, { message: partnerOrderIdText })
  partnerOrderId?: string;

  @QueryInstant({
    description:
      'Only orders whose state (status, payment, delivery) changed at or after this time: an RFC 3339 ' +
      'date-time with Z or an offset',
    example: '2026-12-01T09:30:00Z',
  })
  updatedSince?: string;
}
