import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, Min } from 'class-validator';
import { LimitQueryDto } from '../common/validation/limit-query.dto';

export class JournalQueryDto extends LimitQueryDto {
  @ApiPropertyOptional({ description: 'Entries with an id below this one (the next page)' })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  before?: number;
}
