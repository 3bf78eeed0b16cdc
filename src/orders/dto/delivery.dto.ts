import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { Kopeks } from '../../common/validation/field-decorators';

export class DeliveryDto {
  @ApiPropertyOptional({ default: '' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  city?: string;

  @ApiPropertyOptional({ description: 'Carrier city code' })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(2_147_483_647)
  cityCode?: number;

  @ApiPropertyOptional({ description: 'Carrier pickup point code' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  pvzCode?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @MaxLength(500)
  pvzAddress?: string;

  @Kopeks({ optional: true, description: 'Added to the order total (0 when absent)' })
  deliveryCostKopeks?: number;
}
