import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsObject, IsString, MaxLength, MinLength } from 'class-validator';
import { IsBoundedJsonObject, type JsonBounds } from '../../common/validation/bounded-json';
import { ArrayOf, Kopeks, OptionalNotNull } from '../../common/validation/field-decorators';
import { SizeDto } from './size.dto';

export const ATTRIBUTE_BOUNDS: JsonBounds = { maxDepth: 8, maxKeys: 100, maxBytes: 16 * 1024 };

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

  @ApiPropertyOptional({
    description: 'The article the storefront sends; the webhook matches this field only',
    example: 'TILDA-77',
  })
  @OptionalNotNull()
  @IsString()
  @MinLength(1)
  @MaxLength(64)
  storefrontArticle?: string;

  @Kopeks()
  priceKopeks: number;

  @ApiPropertyOptional({ type: [SizeDto] })
  @OptionalNotNull()
  @ArrayOf(() => SizeDto, { max: 200 })
  sizes?: SizeDto[];

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: `Free-form attributes (colour, material, …): at most ${ATTRIBUTE_BOUNDS.maxDepth} levels deep, ${ATTRIBUTE_BOUNDS.maxKeys} keys and ${ATTRIBUTE_BOUNDS.maxBytes} bytes as JSON`,
  })
  @OptionalNotNull()
  @IsObject()
  @IsBoundedJsonObject(ATTRIBUTE_BOUNDS)
  attributes?: Record<string, unknown>;
}
