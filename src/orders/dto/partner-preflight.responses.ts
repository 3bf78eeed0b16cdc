import { ApiProperty } from '@nestjs/swagger';

const nullableInteger = { type: 'integer', nullable: true } as const;

/** One line of the body, as the webhook would match and price it now. */
export class PreflightLine {
  @ApiProperty({ description: 'The storefront article, as sent' }) article: string;
  @ApiProperty({ description: 'The size, as sent' }) size: string;
  @ApiProperty({ type: 'integer' }) quantity: number;
  @ApiProperty({ description: 'Whether the line names a size of a product by storefront article and size' })
  matched: boolean;
  @ApiProperty(nullableInteger) productId: number | null;
  @ApiProperty(nullableInteger) sizeId: number | null;
  @ApiProperty({ ...nullableInteger, description: 'One unit: the given price, else the size’s, else the product’s' })
  priceKopeks: number | null;
  @ApiProperty(nullableInteger) lineTotalKopeks: number | null;
  @ApiProperty({ ...nullableInteger, description: 'The size’s current stock (before this order)' })
  stock: number | null;
  @ApiProperty({ type: String, nullable: true, description: 'The text the webhook’s 422 gives for this line' })
  problem: string | null;
}

/** What the storefront webhook would do with a body (contract §15); nothing is written. */
export class PartnerPreflightResponse {
  @ApiProperty({ description: 'True exactly when the webhook, sent this body now, would answer 201 or 200' })
  ok: boolean;
  @ApiProperty({ description: 'The brand has an order with this partnerOrderId: the webhook would answer 200' })
  duplicate: boolean;
  @ApiProperty({ type: [PreflightLine], description: "In the order of the body's items" })
  lines: PreflightLine[];
  @ApiProperty({ type: 'integer', description: 'The matched lines only' }) itemsTotalKopeks: number;
  @ApiProperty({ type: 'integer' }) deliveryCostKopeks: number;
  @ApiProperty({ type: 'integer', description: 'Items and delivery' }) totalKopeks: number;
  @ApiProperty({ type: [String], description: "Every line's problem; empty when every line matches" })
  problems: string[];
}
