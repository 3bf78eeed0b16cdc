import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsString, Max, MaxLength, Min, MinLength } from 'class-validator';
import { Kopeks, OptionalNotNull } from '../../common/validation/field-decorators';

export const MAX_STOCK = 1_000_000;

export class SizeDto {
  @ApiProperty({ example: 'M', description: 'Unique per product, compared case-insensitively' })
  @IsString()
  @MinLength(1)
  @MaxLength(50)
  name: string;

  @Kopeks({ optional: true, description: 'Own price of the size; the product price otherwise' })
  priceKopeks?: number;

  @ApiPropertyOptional({ description: 'Initial stock (recorded in the stock ledger)', default: 0 })
  @OptionalNotNull()
  @IsInt()
  @Min(-MAX_STOCK)
  @Max(MAX_STOCK)
  stock?: number;
}
