import { ApiProperty } from '@nestjs/swagger';
import { IsInt, IsString, Max, MaxLength, Min, MinLength, NotEquals } from 'class-validator';
import { BodyId } from '../../common/validation/field-decorators';

export class AdjustmentDto {
  @BodyId()
  sizeId: number;

  @ApiProperty({ description: 'Non-zero change of stock', example: -2 })
  @IsInt()
  @NotEquals(0, { message: 'delta must not be 0' })
  @Min(-1_000_000)
  @Max(1_000_000)
  delta: number;

  @ApiProperty({ example: 'stocktake correction' })
  @IsString()
  @MinLength(1)
  @MaxLength(500)
  reason: string;
}
