import { ApiPropertyOptional, OmitType, PartialType } from '@nestjs/swagger';
import { IsString, MaxLength, MinLength } from 'class-validator';
import { ArrayOf, Nullable, OptionalNotNull } from '../../common/validation/field-decorators';
import { CreateProductDto } from './create-product.dto';
import { SizeDto } from './size.dto';

/**
 * Every field of a new product, optional but not nullable (null would meet a NOT NULL column);
 * the storefront article alone can be cleared with null, and sizes merge by name.
 */
export class UpdateProductDto extends PartialType(OmitType(CreateProductDto, ['storefrontArticle', 'sizes'] as const), {
  skipNullProperties: false,
}) {
  @ApiPropertyOptional({
    nullable: true,
    description: 'null clears it (the storefront can no longer order the product)',
  })
  @Nullable()
  @IsString()
  @MinLength(1)
  @MaxLength(64)
  storefrontArticle?: string | null;

  @ApiPropertyOptional({
    type: [SizeDto],
    description:
      'A size named like an existing one (any case) updates its price; a new name adds a size. Stock changes go through /inventory/adjustments.',
  })
  @OptionalNotNull()
  @ArrayOf(() => SizeDto, { max: 200 })
  sizes?: SizeDto[];
}
