import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsEmail, IsString, MaxLength } from 'class-validator';
import { OptionalNotNull } from '../../common/validation/field-decorators';

export class CreateUserDto {
  @ApiProperty({ example: 'manager@brand.example' })
  @IsEmail()
  @MaxLength(254)
  email: string;

  // Its length and strength are the password rule's (contract §19), refused with the rule's own texts.
  @ApiProperty({
    minLength: 12,
    maxLength: 256,
    description: "Not one of the 10 000 most common passwords, nor holding the e-mail's local part",
  })
  @IsString()
  password: string;

  @ApiPropertyOptional({ default: false })
  @OptionalNotNull()
  @IsBoolean()
  isSuperadmin?: boolean;
}
