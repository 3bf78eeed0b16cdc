import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, IsString, Length, Max, MaxLength, Min } from 'class-validator';
import { ArrayOf, BodyId, Kopeks, OptionalNotNull } from '../../common/validation/field-decorators';
import { MAX_LINE_QUANTITY, MAX_ORDER_LINES, MAX_ORDER_TOTAL_KOPEKS } from '../../common/validation/money';
import { REASON_CODES, type ReasonCode } from '../return-states';

export class ReturnLineDto {
  @BodyId('The order line (the `id` of an order item)')
  orderItemId: number;

  @ApiProperty({ minimum: 1, maximum: MAX_LINE_QUANTITY })
  @IsInt({ message: 'quantity must be a positive integer' })
  @Min(1, { message: 'quantity must be a positive integer' })
  @Max(MAX_LINE_QUANTITY)
  quantity: number;
}

/** A return asked for by the customer (contract §9). */
export class CreateReturnDto {
  @BodyId()
  orderId: number;

  @ApiProperty({
    minLength: 1,
    maxLength: 100,
    description: "The integration's own id of the return, unique in the brand",
  })
  @IsString()
  @Length(1, 100)
  externalReturnId: string;

  @ApiProperty({ type: [ReturnLineDto] })
  @ArrayOf(() => ReturnLineDto, {
    min: 1,
    max: MAX_ORDER_LINES,
    minMessage: 'items must contain at least one line',
    maxMessage: `items must contain at most ${MAX_ORDER_LINES} lines`,
  })
  items: ReturnLineDto[];

  @ApiProperty({ enum: REASON_CODES })
  @IsIn(REASON_CODES)
  reasonCode: ReasonCode;

  @ApiPropertyOptional({ maxLength: 1000 })
  @OptionalNotNull()
  @IsString()
  @MaxLength(1000)
  reasonNote?: string;

  @Kopeks({ optional: true, max: MAX_ORDER_TOTAL_KOPEKS, description: "Defaults to the lines' total" })
  refundKopeks?: number;
}
