import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsInt, IsString, Max, MaxLength, Min, MinLength, ValidateNested } from 'class-validator';

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
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(500)
  @ValidateNested({ each: true })
  @Type(() => AcceptanceItemDto)
  items: AcceptanceItemDto[];
}
