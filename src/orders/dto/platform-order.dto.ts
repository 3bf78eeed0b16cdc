import { ApiProperty } from '@nestjs/swagger';
import { IsInt, Max, Min } from 'class-validator';
import { ArrayOf, BodyId, Kopeks } from '../../common/validation/field-decorators';
import { MAX_LINE_QUANTITY, MAX_ORDER_LINES } from '../../common/validation/money';
import { OrderContactsDto } from './order-contacts.dto';

export class PlatformOrderItemDto {
  @BodyId()
  sizeId: number;

  @ApiProperty({ minimum: 1, maximum: MAX_LINE_QUANTITY })
  @IsInt({ message: 'quantity must be a positive integer' })
  @Min(1, { message: 'quantity must be a positive integer' })
  @Max(MAX_LINE_QUANTITY)
  quantity: number;

  @Kopeks({ optional: true, description: 'Price of one unit; the catalog price when absent' })
  priceKopeks?: number;
}

/** An order taken by the platform itself (contract §6): new, payment pending, stock not yet deducted. */
export class PlatformOrderDto extends OrderContactsDto {
  @ApiProperty({ type: [PlatformOrderItemDto] })
  @ArrayOf(() => PlatformOrderItemDto, {
    min: 1,
    max: MAX_ORDER_LINES,
    minMessage: 'items must contain at least one position',
    maxMessage: `items must contain at most ${MAX_ORDER_LINES} positions`,
  })
  items: PlatformOrderItemDto[];
}
