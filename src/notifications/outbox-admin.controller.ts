import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { PLATFORM_ADMIN } from '../common/context/permissions';
import { RequirePermission } from '../common/decorators/require-permission.decorator';
import { OutboxJobs } from '../outbox/outbox-jobs.repository';
import { OutboxQueryDto } from './dto/outbox-query.dto';
import { OutboxListResponse } from './dto/outbox.responses';

/** What the outbox holds: pending jobs (with attempts and last error) and the ones given up. */
@ApiTags('operations')
@Controller('admin/outbox')
export class OutboxAdminController {
  constructor(private readonly jobs: OutboxJobs) {}

  @RequirePermission(PLATFORM_ADMIN)
  @Get()
  @ApiOkResponse({ type: OutboxListResponse })
  @ApiOperation({ summary: 'The follow-up jobs (superadministrator)', operationId: 'listOutbox' })
  list(@Query() query: OutboxQueryDto): Promise<OutboxListResponse> {
    return this.jobs.list(query.state, query.limit);
  }
}
