import { Controller, Get, Query } from '@nestjs/common';
import { IdParam } from '../common/decorators/id-param.decorator';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { PLATFORM_ADMIN } from '../common/context/permissions';
import { RequirePermission } from '../common/decorators/require-permission.decorator';
import { JournalQueryDto } from './dto/journal-query.dto';
import { SecurityJournal } from './security-journal.service';
import { JournalListResponse } from './dto/journal.responses';

@ApiTags('security journal')
@Controller('admin')
export class SecurityJournalController {
  constructor(private readonly journal: SecurityJournal) {}

  @RequirePermission('settings.manage')
  @Get('brands/:brandId/security-journal')
  @ApiOkResponse({ type: JournalListResponse })
  @ApiOperation({ summary: "The brand's security journal, newest first", operationId: 'listBrandJournal' })
  async forBrand(@IdParam('brandId') brandId: number, @Query() query: JournalQueryDto): Promise<JournalListResponse> {
    return {
      items: await this.journal.list({ brandId, limit: query.limit, beforeId: query.before, types: typesOf(query) }),
    };
  }

  @RequirePermission(PLATFORM_ADMIN)
  @Get('security-journal')
  @ApiOkResponse({ type: JournalListResponse })
  @ApiOperation({ summary: 'The platform security journal, newest first', operationId: 'listPlatformJournal' })
  async all(@Query() query: JournalQueryDto): Promise<JournalListResponse> {
    return { items: await this.journal.list({ limit: query.limit, beforeId: query.before, types: typesOf(query) }) };
  }
}

const typesOf = (query: JournalQueryDto): string[] | undefined => query.type?.split(',');
