import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, MaxLength } from 'class-validator';
import { NestedObject, OptionalNotNull } from '../../common/validation/field-decorators';
import { DeliveryDto } from './delivery.dto';
import { RecipientDto } from './recipient.dto';

/** Who receives an order and where it goes: shared by storefront and platform orders. */
export class OrderContactsDto {
  @ApiProperty({ type: RecipientDto })
  @NestedObject(() => RecipientDto)
  recipient: RecipientDto;

  @ApiPropertyOptional({ type: DeliveryDto })
  @NestedObject(() => DeliveryDto, { optional: true })
  delivery?: DeliveryDto;

  @ApiPropertyOptional()
  @OptionalNotNull()
  @IsString()
  @MaxLength(5000)
  comment?: string;
}
