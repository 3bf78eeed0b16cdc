import { ApiProperty } from '@nestjs/swagger';
import { IsString, MaxLength, MinLength } from 'class-validator';

export class CreateProductionSiteDto {
  @ApiProperty({ example: 'Sewing workshop, Ivanovo' })
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  name: string;
}
