import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsEmail, IsString, MaxLength, MinLength } from 'class-validator';
import { OptionalNotNull } from '../../common/validation/field-decorators';
import { SecondFactorAnswerDto } from './second-factor.dto';

// A new password's length is the policy's to refuse, with the contract's own text (§19), so its
// DTO fields bound only what no password can be: a body of a mebibyte is refused long before.
const newPasswordDocs = {
  minLength: 12,
  maxLength: 256,
  description: "Not one of the 10 000 most common passwords, nor holding the e-mail's local part",
};

export class ChangePasswordDto {
  @ApiProperty({ maxLength: 256 })
  @IsString()
  @MinLength(1)
  @MaxLength(256)
  currentPassword: string;

  @ApiProperty(newPasswordDocs)
  @IsString()
  newPassword: string;
}

export class PasswordResetRequestDto {
  @ApiProperty({ example: 'manager@brand.example' })
  @IsEmail()
  @MaxLength(254)
  email: string;
}

export class PasswordResetDto {
  @ApiProperty(newPasswordDocs)
  @IsString()
  newPassword: string;
}

/**
 * A step-up (contract §19): the password of an account without a second factor, or one answer of
 * that factor (the service asks for exactly one).
 */
export class StepUpDto extends SecondFactorAnswerDto {
  @ApiPropertyOptional({ maxLength: 256, description: "The account's password (an account without a second factor)" })
  @OptionalNotNull()
  @IsString()
  @MinLength(1)
  @MaxLength(256)
  password?: string;
}
