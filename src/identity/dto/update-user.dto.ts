import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean } from 'class-validator';
import { OptionalNotNull } from '../../common/validation/field-decorators';

export class UpdateUserDto {
  @ApiPropertyOptional()
  @OptionalNotNull()
  @IsBoolean()
  isSuperadmin?: boolean;

  @ApiPropertyOptional({ description: 'false switches the account off: its sessions and keys stop working' })
  @OptionalNotNull()
  @IsBoolean()
  active?: boolean;
}
