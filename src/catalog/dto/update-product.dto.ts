import { ApiPropertyOptional, OmitType, PartialType } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsOptional, IsString, MaxLength, MinLength, ValidateIf, ValidateNested } from 'class-validator';
import { CreateProductDto } from './create-product.dto';
import { SizeDto } from './size.dto';

/** Every field of a new product, optional; the storefront article can be cleared and sizes merge by name. */
export class UpdateProductDto extends PartialType(OmitType(CreateProductDto, ['storefrontArticle', 'sizes'] as const)) {
  @ApiPropertyOptional({ nullable: true, description: 'null clears it (the storefront can no longer order the product)' })
  @ValidateIf((_, value) => value !== null)
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(64)
  storefrontArticle?: string | null;

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
