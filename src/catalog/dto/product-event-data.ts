import { ApiProperty } from '@nestjs/swagger';
import { EventData } from '../../domain-events/dto/event-data';

export class ProductEventSize {
  @ApiProperty({ type: 'integer' }) sizeId: number;
  @ApiProperty() name: string;
  @ApiProperty({ type: 'integer', nullable: true, description: "The size's own price; null: the product's" })
  priceKopeks: number | null;
}

/** The data of `product.created` and `product.updated` (contract §16): the product as the change left it. */
export class ProductEventData extends EventData {
  @ApiProperty({ type: 'integer' }) productId: number;
  @ApiProperty() article: string;
  @ApiProperty({ type: String, nullable: true }) storefrontArticle: string | null;
  @ApiProperty() name: string;
  @ApiProperty({ type: 'integer' }) priceKopeks: number;
  @ApiProperty({ type: [ProductEventSize], description: 'In id order' }) sizes: ProductEventSize[];
}
