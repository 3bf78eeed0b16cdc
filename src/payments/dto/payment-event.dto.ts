import { ApiProperty } from '@nestjs/swagger';
import { IsIn, IsInt, IsISO8601, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { MAX_KOPEKS } from '../../catalog/dto/size.dto';

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

  @ApiProperty()
  @IsInt()
  @Min(0)
  @Max(MAX_KOPEKS)
  amountKopeks: number;

  @ApiProperty({ enum: ['succeeded', 'failed'] })
  @IsIn(['succeeded', 'failed'])
  status: 'succeeded' | 'failed';

  @ApiProperty({ example: '2026-11-22T10:00:00Z' })
  @IsISO8601({ strict: true })
  paidAt: string;
}
