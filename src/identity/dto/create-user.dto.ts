import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsEmail, IsString, MaxLength, MinLength } from 'class-validator';
import { OptionalNotNull } from '../../common/validation/field-decorators';

export class CreateUserDto {
  @ApiProperty({ example: 'manager@brand.example' })
  @IsEmail()
  @MaxLength(254)
  email: string;

  @ApiProperty({ minLength: 8, maxLength: 256 })
  @IsString()
  @MinLength(8)
  @MaxLength(256)
  password: string;

  @ApiPropertyOptional({ default: false })
  @OptionalNotNull()
  @IsBoolean()
  isSuperadmin?: boolean;
}
