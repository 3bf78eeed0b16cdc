import { ApiProperty } from '@nestjs/swagger';
import { IsInt, IsString, Max, MaxLength, Min, MinLength } from 'class-validator';
import { ArrayOf } from '../../common/validation/field-decorators';

export class AcceptanceItemDto {
  @ApiProperty({ description: "The product's own article (not the storefront one)" })
  @IsString()
  @MinLength(1)
  @MaxLength(64)
  article: string;

  @ApiProperty()
  @IsString()
  @MinLength(1)
  @MaxLength(50)
  size: string;

  @ApiProperty({ minimum: 1 })
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  quantity: number;
}

export class AcceptanceDto {
  @ApiProperty({ type: [AcceptanceItemDto] })
  @ArrayOf(() => AcceptanceItemDto, { min: 1, max: 500 })
  items: AcceptanceItemDto[];
}
