import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsISO8601, IsString, Matches, MaxLength, ValidateIf } from 'class-validator';
import { OptionalNotNull } from '../../common/validation/field-decorators';
import { CARRIER_STATUSES, type CarrierStatus } from '../../orders/carrier-status';

export class CarrierEventDto {
  @ApiProperty()
  @IsString()
  @Matches(/\S/, { message: 'eventId must not be empty' })
  @MaxLength(200)
  eventId: string;

  @ApiPropertyOptional({ description: 'The shipment, by carrier id or tracking number (at least one)' })
  // Required unless trackingNumber is given; given, it is a text even then (never null).
  @ValidateIf((event: CarrierEventDto, value) => event.trackingNumber === undefined || value !== undefined)
  @IsString({ message: 'carrierOrderUuid or trackingNumber is required' })
  @MaxLength(64)
  carrierOrderUuid?: string;

  @ApiPropertyOptional()
  @OptionalNotNull()
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
