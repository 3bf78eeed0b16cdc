import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn } from 'class-validator';
import { OptionalNotNull } from '../../common/validation/field-decorators';
import { LimitQueryDto } from '../../common/validation/dto/limit-query.dto';
import type { OutboxState } from '../../outbox/outbox-jobs.repository';

export class OutboxQueryDto extends LimitQueryDto {
  @ApiPropertyOptional({ enum: ['pending', 'failed', 'done'], default: 'pending' })
  @OptionalNotNull()
  @IsIn(['pending', 'failed', 'done'])
  state: OutboxState = 'pending';
}
