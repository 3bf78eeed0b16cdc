import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsOptional } from 'class-validator';

export class UpdateUserDto {
  @ApiPropertyOptional()
  @IsOptional()
  @IsBoolean()
  isSuperadmin?: boolean;

  @ApiPropertyOptional({ description: 'false switches the account off: its sessions and keys stop working' })
  @IsOptional()
  @IsBoolean()
  active?: boolean;
}
