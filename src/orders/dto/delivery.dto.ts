import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsString, Max, MaxLength, Min } from 'class-validator';
import { Kopeks, OptionalNotNull } from '../../common/validation/field-decorators';

export class DeliveryDto {
  @ApiPropertyOptional({ default: '' })
  @OptionalNotNull()
  @IsString()
  @MaxLength(200)
  city?: string;

  @ApiPropertyOptional({ description: 'Carrier city code' })
  @OptionalNotNull()
  @IsInt()
  @Min(0)
  @Max(2_147_483_647)
  cityCode?: number;

  @ApiPropertyOptional({ description: 'Carrier pickup point code' })
  @OptionalNotNull()
  @IsString()
  @MaxLength(64)
  pvzCode?: string;

  @ApiPropertyOptional()
  @OptionalNotNull()
  @IsString()
  @MaxLength(500)
  pvzAddress?: string;

  @Kopeks({ optional: true, description: 'Added to the order total (0 when absent)' })
  deliveryCostKopeks?: number;
}
