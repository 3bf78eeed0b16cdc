import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsInt, IsOptional, Max, Min, ValidateNested } from 'class-validator';
import { MAX_KOPEKS } from '../../catalog/dto/size.dto';
import { MAX_ORDER_ITEMS, MAX_QUANTITY } from './partner-order.dto';
import { OrderContactsDto } from './order-contacts.dto';

export class PlatformOrderItemDto {
  @ApiProperty()
  @IsInt()
  @Min(1)
  sizeId: number;

  @ApiProperty({ minimum: 1 })
  @IsInt({ message: 'quantity must be a positive integer' })
  @Min(1, { message: 'quantity must be a positive integer' })
  @Max(MAX_QUANTITY)
  quantity: number;

  @ApiPropertyOptional()
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(MAX_KOPEKS)
  priceKopeks?: number;
}

/** An order taken by the platform itself (contract §6): new, payment pending, stock not yet deducted. */
export class PlatformOrderDto extends OrderContactsDto {
  @ApiProperty({ type: [PlatformOrderItemDto] })
  @IsArray()
  @ArrayMinSize(1, { message: 'items must contain at least one position' })
  @ArrayMaxSize(MAX_ORDER_ITEMS, { message: `items must contain at most ${MAX_ORDER_ITEMS} positions` })
  @ValidateNested({ each: true })
  @Type(() => PlatformOrderItemDto)
  items: PlatformOrderItemDto[];
}
