import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { MAX_KOPEKS } from '../../catalog/dto/size.dto';

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

  @ApiPropertyOptional({ default: 0, description: 'Added to the order total' })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(MAX_KOPEKS)
  deliveryCostKopeks?: number;
}
