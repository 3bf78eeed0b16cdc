import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, MaxLength } from 'class-validator';
import { OptionalNotNull } from '../../common/validation/field-decorators';

export class CancelOrderDto {
  @ApiPropertyOptional({ maxLength: 500 })
  @OptionalNotNull()
  @IsString()
  @MaxLength(500)
  reason?: string;
}
