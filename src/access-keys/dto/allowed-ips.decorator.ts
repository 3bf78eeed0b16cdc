import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsString, ValidateBy } from 'class-validator';
import { Nullable } from '../../common/validation/field-decorators';
import { canonicalEntry, MAX_ALLOWED_IPS } from '../address-allowlist';

/** `allowedIps` (contract §12): up to 20 addresses or CIDR blocks; null or absent means any address. */
export function AllowedIps() {
  return applyDecorators(
    ApiPropertyOptional({
      type: [String],
      nullable: true,
      maxItems: MAX_ALLOWED_IPS,
      example: ['203.0.113.7', '198.51.100.0/24', '2001:db8::/32'],
      description: 'IPv4 or IPv6 addresses or CIDR blocks the key may be used from; null or absent: any',
    }),
    Nullable(),
    IsArray(),
    ArrayMaxSize(MAX_ALLOWED_IPS, { message: `allowedIps must list at most ${MAX_ALLOWED_IPS} entries` }),
    IsString({ each: true }),
    ValidateBy({
      name: 'isIpOrCidr',
      validator: {
        validate: (value: unknown) =>
          !Array.isArray(value) || value.every((entry) => typeof entry !== 'string' || canonicalEntry(entry) !== null),
        defaultMessage: () => 'each value in allowedIps must be an IPv4 or IPv6 address or CIDR block',
      },
    }),
  );
}
