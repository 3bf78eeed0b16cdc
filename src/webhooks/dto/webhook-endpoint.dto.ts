import { ApiProperty, ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsString,
  IsUrl,
  Max,
  MaxLength,
  Min,
} from 'class-validator';
import { OptionalNotNull } from '../../common/validation/field-decorators';
import { SUBSCRIBABLE } from '../event-types';

export class CreateWebhookEndpointDto {
  @ApiProperty({ maxLength: 2048, example: 'https://erp.example.com/hooks/commerce' })
  @IsUrl(
    { protocols: ['http', 'https'], require_protocol: true, require_tld: false, require_valid_protocol: true },
    { message: 'url must be an absolute http:// or https:// URL' },
  )
  @MaxLength(2048)
  url: string;

  @ApiProperty({ enum: SUBSCRIBABLE, isArray: true, description: 'The event types to send, or ["*"] for all' })
  @IsArray()
  @ArrayMinSize(1, { message: 'eventTypes must list at least one event type' })
  @ArrayMaxSize(SUBSCRIBABLE.length)
  @IsIn(SUBSCRIBABLE, { each: true, message: `each value in eventTypes must be one of ${SUBSCRIBABLE.join(', ')}` })
  eventTypes: string[];

  @ApiPropertyOptional({ maxLength: 500 })
  @OptionalNotNull()
  @IsString()
  @MaxLength(500)
  description?: string;
}

export class UpdateWebhookEndpointDto extends PartialType(CreateWebhookEndpointDto, { skipNullProperties: false }) {
  @ApiPropertyOptional()
  @OptionalNotNull()
  @IsBoolean()
  enabled?: boolean;
}

export class RotateSecretDto {
  @ApiPropertyOptional({ minimum: 0, maximum: 604_800, default: 86_400 })
  @OptionalNotNull()
  @IsInt({ message: 'oldSecretExpiresInSeconds must be an integer from 0 to 604800' })
  @Min(0, { message: 'oldSecretExpiresInSeconds must be an integer from 0 to 604800' })
  @Max(604_800, { message: 'oldSecretExpiresInSeconds must be an integer from 0 to 604800' })
  oldSecretExpiresInSeconds?: number;
}
