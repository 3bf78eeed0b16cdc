import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsDefined, IsObject, IsOptional, IsString, MaxLength, ValidateNested } from 'class-validator';
import { DeliveryDto } from './delivery.dto';
import { RecipientDto } from './recipient.dto';

/** Who receives an order and where it goes: shared by storefront and platform orders. */
export class OrderContactsDto {
  @ApiProperty({ type: RecipientDto })
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => RecipientDto)
  recipient: RecipientDto;

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
