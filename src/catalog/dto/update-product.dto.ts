import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { MAX_KOPEKS, SizeDto } from './size.dto';

export class UpdateProductDto {
  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  name?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(64)
  article?: string;

  @ApiPropertyOptional({ nullable: true, description: 'null clears it (the storefront can no longer order the product)' })
  @ValidateIf((_, value) => value !== null)
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(64)
  storefrontArticle?: string | null;

  @ApiPropertyOptional()
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(MAX_KOPEKS)
  priceKopeks?: number;

  @ApiPropertyOptional({ description: 'Replaces the attributes' })
  @IsOptional()
  @IsObject()
  attributes?: Record<string, unknown>;

  @ApiPropertyOptional({
    type: [SizeDto],
    description:
      'A size named like an existing one (any case) updates its price; a new name adds a size. Stock changes go through /inventory/adjustments.',
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(200)
  @ValidateNested({ each: true })
  @Type(() => SizeDto)
  sizes?: SizeDto[];
}
