import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { PLATFORM_ADMIN } from '../common/context/permissions';
import { RequirePermission } from '../common/decorators/require-permission.decorator';
import { LimitQueryDto } from '../common/validation/limit-query.dto';
import { OutboxJobs, type OutboxState } from '../outbox/outbox-jobs.repository';
import { OutboxListResponse } from './outbox.responses';

export class OutboxQueryDto extends LimitQueryDto {
  @ApiPropertyOptional({ enum: ['pending', 'failed', 'done'], default: 'pending' })
  @IsOptional()
  @IsIn(['pending', 'failed', 'done'])
  state: OutboxState = 'pending';
}

/** What the outbox holds: pending jobs (with attempts and last error) and the ones given up. */
@ApiTags('operations')
@Controller('admin/outbox')
export class OutboxAdminController {
  constructor(private readonly jobs: OutboxJobs) {}

  @RequirePermission(PLATFORM_ADMIN)
  @Get()
  @ApiOkResponse({ type: OutboxListResponse })
  list(@Query() query: OutboxQueryDto): Promise<OutboxListResponse> {
    return this.jobs.list(query.state, query.limit);
  }
}
