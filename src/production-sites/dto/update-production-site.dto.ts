import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsString, MaxLength, MinLength } from 'class-validator';
import { OptionalNotNull } from '../../common/validation/field-decorators';

export class UpdateProductionSiteDto {
  @ApiPropertyOptional({ description: 'false switches the site off: its keys stop working within 30 s' })
  @OptionalNotNull()
  @IsBoolean()
  active?: boolean;

  @ApiPropertyOptional()
  @OptionalNotNull()
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  name?: string;
}
