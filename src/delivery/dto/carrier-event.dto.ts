import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsISO8601, IsOptional, IsString, Matches, MaxLength, ValidateIf } from 'class-validator';
import { CARRIER_STATUSES, type CarrierStatus } from '../../orders/carrier-status';

export class CarrierEventDto {
  @ApiProperty()
  @IsString()
  @Matches(/\S/, { message: 'eventId must not be empty' })
  @MaxLength(200)
  eventId: string;

  @ApiPropertyOptional({ description: 'The shipment, by carrier id or tracking number (at least one)' })
  @ValidateIf((event: CarrierEventDto) => event.trackingNumber === undefined)
  @IsString({ message: 'carrierOrderUuid or trackingNumber is required' })
  @MaxLength(64)
  carrierOrderUuid?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @MaxLength(64)
  trackingNumber?: string;

  @ApiProperty({ enum: CARRIER_STATUSES })
  @IsIn(CARRIER_STATUSES, { message: `status must be one of: ${CARRIER_STATUSES.join(', ')}` })
  status: CarrierStatus;

  @ApiProperty({ example: '2026-11-22T10:00:00Z' })
  @IsISO8601({ strict: true })
  occurredAt: string;
}
