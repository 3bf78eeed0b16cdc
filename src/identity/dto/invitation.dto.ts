import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsEmail, IsIn, IsString, MaxLength } from 'class-validator';
import { BRAND_PERMISSIONS, type BrandPermission } from '../../common/context/permissions';
import { OptionalNotNull } from '../../common/validation/field-decorators';
import { PASSWORD_MAX, PASSWORD_MIN } from '../password-policy';

export class InviteMemberDto {
  @ApiProperty({ example: 'clerk@brand.example', description: 'Compared case-insensitively; kept lower-cased' })
  @IsEmail()
  @MaxLength(254)
  email: string;

  @ApiProperty({ enum: BRAND_PERMISSIONS, isArray: true, minItems: 1, description: 'What the member will hold' })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(BRAND_PERMISSIONS.length * 2)
  @IsIn(BRAND_PERMISSIONS, {
    each: true,
    message: `each value in permissions must be one of: ${BRAND_PERMISSIONS.join(', ')}`,
  })
  permissions: BrandPermission[];
}

/**
 * The body of an accept. Its length is the password rule's to refuse, with the contract's text
 * (contract §19), so the DTO only asks for text.
 */
export class AcceptInvitationDto {
  @ApiPropertyOptional({
    minLength: PASSWORD_MIN,
    maxLength: PASSWORD_MAX,
    description:
      "The new account's password, when no account has the invited e-mail (accountExists: false); " +
      'not read when one has: that account accepts by being signed in',
  })
  @OptionalNotNull()
  @IsString()
  password?: string;
}
