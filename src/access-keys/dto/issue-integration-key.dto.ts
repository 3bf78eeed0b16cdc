import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsISO8601, IsString, MaxLength, MinLength } from 'class-validator';
import { BRAND_PERMISSIONS, SETTINGS_MANAGE, type BrandPermission } from '../../common/context/permissions';
import { OptionalNotNull } from '../../common/validation/field-decorators';
import { SchemaRule } from '../../common/validation/validation-rules-schemas';
import { AllowedIps } from './allowed-ips.decorator';

/** A key holds listed permissions or full access, never both, never neither (the service's validateGrant). */
@SchemaRule({
  oneOf: [
    {
      required: ['permissions'],
      properties: { permissions: { type: 'array', minItems: 1 }, fullAccess: { type: 'boolean', enum: [false] } },
    },
    {
      required: ['fullAccess'],
      properties: { fullAccess: { type: 'boolean', enum: [true] }, permissions: { type: 'array', maxItems: 0 } },
    },
  ],
})
export class IssueIntegrationKeyDto {
  @ApiProperty({ description: 'The integration name, recorded in the journal', example: 'Storefront (Tilda)' })
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  name: string;

  @ApiPropertyOptional({
    // settings.manage passes the check below only to be refused by its own text (no key holds it).
    enum: BRAND_PERMISSIONS.filter((p) => p !== SETTINGS_MANAGE),
    isArray: true,
    description: 'Either this (non-empty) or fullAccess: true, not both',
  })
  @OptionalNotNull()
  @IsArray()
  @ArrayMaxSize(BRAND_PERMISSIONS.length * 2)
  @IsIn(BRAND_PERMISSIONS, {
    each: true,
    message: `each value in permissions must be one of: ${BRAND_PERMISSIONS.join(', ')}`,
  })
  permissions?: BrandPermission[];

  @ApiPropertyOptional({ description: 'Every permission within the store except settings.manage' })
  @OptionalNotNull()
  @IsBoolean()
  fullAccess?: boolean;

  @ApiPropertyOptional({ description: 'ISO 8601, in the future; without it the key never expires' })
  @OptionalNotNull()
  @IsISO8601({ strict: true })
  expiresAt?: string;

  @AllowedIps()
  allowedIps?: string[] | null;
}

/** PATCH: the name and the allowlist; permissions stay fixed (reissue or roll to change a key). */
export class UpdateIntegrationKeyDto {
  @ApiPropertyOptional({ minLength: 1, maxLength: 100 })
  @OptionalNotNull()
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  name?: string;

  @AllowedIps()
  allowedIps?: string[] | null;
}

export class RollIntegrationKeyDto {
  @ApiPropertyOptional({
    description:
      'Until when the old key keeps working: ISO 8601, at most 7 days ahead, not after its own expiry. Default: now',
  })
  @OptionalNotNull()
  @IsISO8601({ strict: true })
  oldKeyExpiresAt?: string;
}
