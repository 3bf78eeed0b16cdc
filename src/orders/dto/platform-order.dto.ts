import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsDefined, IsInt, IsObject, IsOptional, IsString, Max, MaxLength, Min, ValidateNested } from 'class-validator';
import { MAX_KOPEKS } from '../../catalog/dto/size.dto';
import { DeliveryDto } from './delivery.dto';
import { MAX_ORDER_ITEMS, MAX_QUANTITY } from './partner-order.dto';
import { RecipientDto } from './recipient.dto';

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
export class PlatformOrderDto {
  @ApiProperty({ type: RecipientDto })
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => RecipientDto)
  recipient: RecipientDto;

  @ApiProperty({ type: [PlatformOrderItemDto] })
  @IsArray()
  @ArrayMinSize(1, { message: 'items must contain at least one position' })
  @ArrayMaxSize(MAX_ORDER_ITEMS, { message: `items must contain at most ${MAX_ORDER_ITEMS} positions` })
  @ValidateNested({ each: true })
  @Type(() => PlatformOrderItemDto)
  items: PlatformOrderItemDto[];

  @ApiPropertyOptional({ type: DeliveryDto })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => DeliveryDto)
  delivery?: DeliveryDto;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @MaxLength(5000)
  comment?: string;
}
