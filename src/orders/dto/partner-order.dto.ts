import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { ArrayOf, Kopeks, OptionalNotNull } from '../../common/validation/field-decorators';
import { MAX_LINE_QUANTITY, MAX_ORDER_LINES } from '../../common/validation/money';
import { OrderContactsDto } from './order-contacts.dto';

const NOT_BLANK = /\S/;

export class PartnerOrderItemDto {
  @ApiProperty({ description: "The storefront article (the product's storefrontArticle)", example: 'TILDA-77' })
  @IsString()
  @Matches(NOT_BLANK, { message: 'article must not be empty' })
  @MaxLength(64)
  article: string;

  @ApiProperty({ description: 'Legacy size name, compared case-insensitively', example: 'M' })
  @IsString()
  @Matches(NOT_BLANK, { message: 'size must not be empty' })
  @MaxLength(50)
  size: string;

  @ApiProperty({ minimum: 1, maximum: MAX_LINE_QUANTITY, example: 2 })
  @IsInt({ message: 'quantity must be a positive integer' })
  @Min(1, { message: 'quantity must be a positive integer' })
  @Max(MAX_LINE_QUANTITY)
  quantity: number;

  @Kopeks({
    optional: true,
    description: 'Price of one unit; the catalog price of the size, else of the product, when absent',
  })
  priceKopeks?: number;
}

/** The storefront webhook body, spec §2.4. */
export class PartnerOrderDto extends OrderContactsDto {
  @ApiProperty({ description: 'Order number in the storefront; a repeat creates nothing', example: 'T-10025' })
  @IsString()
  @Matches(NOT_BLANK, { message: 'partnerOrderId must not be empty' })
  @MaxLength(100)
  partnerOrderId: string;

  @ApiProperty({ type: [PartnerOrderItemDto], minItems: 1, maxItems: MAX_ORDER_LINES })
  @ArrayOf(() => PartnerOrderItemDto, {
    min: 1,
    max: MAX_ORDER_LINES,
    minMessage: 'items must contain at least one position',
    maxMessage: `items must contain at most ${MAX_ORDER_LINES} positions`,
  })
  items: PartnerOrderItemDto[];

  @ApiPropertyOptional()
  @OptionalNotNull()
  @IsString()
  @MaxLength(64)
  carrierOrderUuid?: string;

  @ApiPropertyOptional()
  @OptionalNotNull()
  @IsString()
  @MaxLength(64)
  carrierTrackingNumber?: string;

  @ApiPropertyOptional()
  @OptionalNotNull()
  @IsString()
  @MaxLength(2048)
  waybillUrl?: string;

  @ApiPropertyOptional({ description: 'For reporting only; no discount is recomputed' })
  @OptionalNotNull()
  @IsString()
  @MaxLength(100)
  promoCode?: string;

  @ApiPropertyOptional({
    description: 'An RFC 3339 date-time with its offset; absent or anything else: the moment the webhook is received',
    // Any value is taken (a storefront posts its whole form); a date-time is the one that counts.
    anyOf: [{ type: 'string', format: 'date-time' }, {}],
  })
  @OptionalNotNull()
  orderDate?: unknown;
}
