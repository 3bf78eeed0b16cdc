import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, IsString, Max, MaxLength, Min } from 'class-validator';
import { ArrayOf, BodyId, Kopeks, OptionalNotNull } from '../../common/validation/field-decorators';
import { MAX_LINE_QUANTITY, MAX_ORDER_LINES, MAX_ORDER_TOTAL_KOPEKS } from '../../common/validation/money';
import { DISPOSITIONS, type Disposition } from '../return-states';

export class DeclineReturnDto {
  @ApiPropertyOptional({ maxLength: 1000 })
  @OptionalNotNull()
  @IsString()
  @MaxLength(1000)
  reasonNote?: string;
}

export class ReceiptLineDto {
  @BodyId('A line of the return (the `id` of a return item)')
  returnItemId: number;

  @ApiProperty({ minimum: 1, maximum: MAX_LINE_QUANTITY })
  @IsInt({ message: 'quantity must be a positive integer' })
  @Min(1, { message: 'quantity must be a positive integer' })
  @Max(MAX_LINE_QUANTITY)
  quantity: number;

  @ApiProperty({ enum: DISPOSITIONS, description: 'Only `restock` goes back to stock' })
  @IsIn(DISPOSITIONS)
  disposition: Disposition;
}

export class ReceiveReturnDto {
  @ApiProperty({ type: [ReceiptLineDto] })
  @ArrayOf(() => ReceiptLineDto, {
    min: 1,
    max: MAX_ORDER_LINES,
    minMessage: 'items must contain at least one line',
    maxMessage: `items must contain at most ${MAX_ORDER_LINES} lines`,
  })
  items: ReceiptLineDto[];
}

export class RefundReturnDto {
  @Kopeks({ optional: true, max: MAX_ORDER_TOTAL_KOPEKS, description: "Defaults to the return's refundKopeks" })
  refundKopeks?: number;
}
