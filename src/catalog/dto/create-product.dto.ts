import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
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
  ValidateNested,
} from 'class-validator';
import { MAX_KOPEKS, SizeDto } from './size.dto';

export class CreateProductDto {
  @ApiProperty({ example: 'Linen shirt' })
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  name: string;

  @ApiProperty({ description: "The platform's own article, unique in the brand", example: 'LS-001' })
  @IsString()
  @MinLength(1)
  @MaxLength(64)
  article: string;

  @ApiPropertyOptional({ description: 'The article the storefront sends; the webhook matches this field only', example: 'TILDA-77' })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(64)
  storefrontArticle?: string;

  @ApiProperty({ example: 450000 })
  @IsInt()
  @Min(0)
  @Max(MAX_KOPEKS)
  priceKopeks: number;

  @ApiPropertyOptional({ type: [SizeDto] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(200)
  @ValidateNested({ each: true })
  @Type(() => SizeDto)
  sizes?: SizeDto[];

  @ApiPropertyOptional({ description: 'Free-form attributes (colour, material, …)' })
  @IsOptional()
  @IsObject()
  attributes?: Record<string, unknown>;
}
