import { ApiProperty } from '@nestjs/swagger';
import { STOCK_REASONS, type StockReason } from '../../stock-ledger/dto/stock-reason';

export class StockItem {
  @ApiProperty() productId: number;
  @ApiProperty() sizeId: number;
  @ApiProperty() article: string;
  @ApiProperty({ type: String, nullable: true }) storefrontArticle: string | null;
  @ApiProperty() size: string;
  @ApiProperty() stock: number;
}

export class StockResponse {
  @ApiProperty({ type: [StockItem] }) items: StockItem[];
}

export class MovementActor {
  @ApiProperty() kind: string;
  @ApiProperty({ type: Number, nullable: true }) id: number | null;
}

export class Movement {
  @ApiProperty() id: number;
  @ApiProperty() sizeId: number;
  @ApiProperty() delta: number;
  @ApiProperty({ enum: STOCK_REASONS }) reason: StockReason;
  @ApiProperty({ type: Number, nullable: true }) orderId: number | null;
  @ApiProperty({ type: Number, nullable: true }) acceptanceId: number | null;
  @ApiProperty({ type: String, nullable: true }) note: string | null;
  @ApiProperty({ type: MovementActor, nullable: true }) actor: MovementActor | null;
  @ApiProperty({ format: 'date-time' }) at: string;
}

export class MovementsResponse {
  @ApiProperty({ type: [Movement] }) items: Movement[];
}

export class AdjustmentResponse {
  @ApiProperty() sizeId: number;
  @ApiProperty() productId: number;
  @ApiProperty() delta: number;
  @ApiProperty() reason: string;
  @ApiProperty({ description: 'The stock after the adjustment' }) stock: number;
}

export class AcceptedLine {
  @ApiProperty() productId: number;
  @ApiProperty() sizeId: number;
  @ApiProperty() article: string;
  @ApiProperty() size: string;
  @ApiProperty() quantity: number;
  @ApiProperty({ description: 'The stock after the acceptance' }) stock: number;
}

export class AcceptanceResponse {
  @ApiProperty() id: number;
  @ApiProperty() siteId: number;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ type: [AcceptedLine] }) items: AcceptedLine[];
}

export class QueueItem {
  @ApiProperty() productId: number;
  @ApiProperty() sizeId: number;
  @ApiProperty() article: string;
  @ApiProperty() name: string;
  @ApiProperty() size: string;
  @ApiProperty() stock: number;
  @ApiProperty({ description: 'How many to make: minus the stock' }) quantityShort: number;
}

export class QueueResponse {
  @ApiProperty({ type: [QueueItem] }) items: QueueItem[];
}
