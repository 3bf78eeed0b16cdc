import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsEmail, IsString, Matches, MaxLength } from 'class-validator';
import { OptionalNotNull } from '../../common/validation/field-decorators';

const NOT_BLANK = /\S/;

export class RecipientDto {
  @ApiProperty({ example: 'Ivanova Maria Petrovna', description: 'Surname, first name, patronymic, space-separated' })
  @IsString()
  @Matches(NOT_BLANK, { message: 'fullName must not be empty' })
  @MaxLength(300)
  fullName: string;

  @ApiProperty({ example: '+7 (912) 345-67-89', description: 'Any format; kept as sent, plus a normalised form' })
  @IsString()
  @Matches(NOT_BLANK, { message: 'phone must not be empty' })
  @MaxLength(50)
  phone: string;

  @ApiPropertyOptional({ example: 'maria@example.com' })
  @OptionalNotNull()
  @IsEmail()
  @MaxLength(254)
  email?: string;
}
