import { ApiProperty } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsIn } from 'class-validator';
import { BRAND_PERMISSIONS, type BrandPermission } from '../../common/context/permissions';

export class PutMembershipDto {
  @ApiProperty({ enum: BRAND_PERMISSIONS, isArray: true, description: 'An empty list removes the membership' })
  @IsArray()
  @ArrayMaxSize(BRAND_PERMISSIONS.length * 2)
  @IsIn(BRAND_PERMISSIONS, {
    each: true,
    message: `each value in permissions must be one of: ${BRAND_PERMISSIONS.join(', ')}`,
  })
  permissions: BrandPermission[];
}
