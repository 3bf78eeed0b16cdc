import { ApiProperty } from '@nestjs/swagger';
import { EventData } from '../../domain-events/dto/event-data';
import { STOCK_REASONS, type StockReason } from './stock-reason';

/** The data of `stock.changed` (contract §16): one size's net change in one transaction. */
export class StockChangedData extends EventData {
  @ApiProperty({ type: 'integer' }) sizeId: number;
  @ApiProperty({ type: 'integer' }) productId: number;
  @ApiProperty() article: string;
  @ApiProperty({ type: String, nullable: true }) storefrontArticle: string | null;
  @ApiProperty({ description: "The size's name" }) size: string;
  @ApiProperty({ type: 'integer', description: "The size's net change in that transaction, never 0" }) delta: number;
  @ApiProperty({
    type: 'integer',
    description: "The size's stock right after it: the previous event's stock plus this delta",
  })
  stock: number;
  @ApiProperty({ enum: STOCK_REASONS }) reason: StockReason;
  @ApiProperty({ type: 'integer', nullable: true, description: 'The order that caused it' }) orderId: number | null;
  @ApiProperty({ type: 'integer', nullable: true, description: 'The return that caused it' }) returnId: number | null;
}
