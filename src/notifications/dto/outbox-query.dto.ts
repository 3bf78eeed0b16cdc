import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { LimitQueryDto } from '../../common/validation/dto/limit-query.dto';
import type { OutboxState } from '../../outbox/outbox-jobs.repository';

export class OutboxQueryDto extends LimitQueryDto {
  @ApiPropertyOptional({ enum: ['pending', 'failed', 'done'], default: 'pending' })
  @IsOptional()
  @IsIn(['pending', 'failed', 'done'])
  state: OutboxState = 'pending';
}
