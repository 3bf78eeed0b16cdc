import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsEmail, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { OptionalNotNull } from '../../common/validation/field-decorators';

export class CreateBrandDto {
  @ApiProperty({ example: 'Northwind Apparel' })
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  name: string;

  @ApiProperty({ example: 'northwind', pattern: '^[a-z0-9-]{2,40}$' })
  @IsString()
  @Matches(/^[a-z0-9-]{2,40}$/, { message: 'slug must match ^[a-z0-9-]{2,40}$' })
  slug: string;

  @ApiPropertyOptional({ description: 'Where staff notifications of the brand are mailed' })
  @OptionalNotNull()
  @IsEmail()
  @MaxLength(254)
  staffEmail?: string;
}
