import { ApiProperty } from '@nestjs/swagger';

export class SizeResponse {
  @ApiProperty() id: number;
  @ApiProperty() name: string;
  @ApiProperty({ type: Number, nullable: true, description: "The size's own price; null for the product's" })
  priceKopeks: number | null;
  @ApiProperty({ description: 'May be below zero: paid orders are taken beyond stock' }) stock: number;
}

export class ProductResponse {
  @ApiProperty() id: number;
  @ApiProperty() name: string;
  @ApiProperty() article: string;
  @ApiProperty({ type: String, nullable: true }) storefrontArticle: string | null;
  @ApiProperty() priceKopeks: number;
  @ApiProperty({ type: 'object', additionalProperties: true }) attributes: Record<string, unknown>;
  @ApiProperty({ type: [SizeResponse] }) sizes: SizeResponse[];
}

export class ProductListResponse {
  @ApiProperty({ type: [ProductResponse] }) items: ProductResponse[];
}
