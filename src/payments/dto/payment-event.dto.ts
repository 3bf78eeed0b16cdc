import { ApiProperty } from '@nestjs/swagger';
import { IsIn, IsISO8601, IsString, Matches, MaxLength } from 'class-validator';
import { Kopeks } from '../../common/validation/field-decorators';
import { MAX_ORDER_TOTAL_KOPEKS } from '../../common/validation/money';

export class PaymentEventDto {
  @ApiProperty({ description: 'Unique per event; a repeat is answered as a duplicate' })
  @IsString()
  @Matches(/\S/, { message: 'eventId must not be empty' })
  @MaxLength(200)
  eventId: string;

  @ApiProperty()
  @IsString()
  @Matches(/\S/, { message: 'orderNumber must not be empty' })
  @MaxLength(32)
  orderNumber: string;

  @Kopeks({ max: MAX_ORDER_TOTAL_KOPEKS, description: 'What the buyer paid; must equal the order total' })
  amountKopeks: number;

  @ApiProperty({ enum: ['succeeded', 'failed'] })
  @IsIn(['succeeded', 'failed'])
  status: 'succeeded' | 'failed';

  @ApiProperty({ example: '2026-11-22T10:00:00Z' })
  @IsISO8601({ strict: true })
  paidAt: string;
}
