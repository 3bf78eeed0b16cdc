import { Controller, Get, Query } from '@nestjs/common';
import { IdParam } from '../common/decorators/id-param.decorator';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { BrandContext } from '../common/context/request-context';
import { BrandPathParam } from '../common/decorators/brand-path-param.decorator';
import { BrandCtx } from '../common/decorators/ctx.decorator';
import { RequirePermission } from '../common/decorators/require-permission.decorator';
import { RequestLogQueryDto } from './dto/request-log-query.dto';
import { KeyRequestListResponse, KeyUsageResponse } from './dto/request-log.responses';
import { RequestLogService } from './request-log.service';

@ApiTags('integration keys')
@BrandPathParam()
@Controller('admin/brands/:brandId/integration-keys/:keyId')
export class RequestLogController {
  constructor(private readonly log: RequestLogService) {}

  @RequirePermission('settings.manage')
  @Get('requests')
  @ApiOkResponse({ type: KeyRequestListResponse, description: "The key's failed requests of the last 30 days" })
  @ApiOperation({ summary: "A key's failed requests", operationId: 'listKeyRequests' })
  async requests(
    @BrandCtx() ctx: BrandContext,
    @IdParam('keyId') keyId: number,
    @Query() query: RequestLogQueryDto,
  ): Promise<KeyRequestListResponse> {
    return { items: await this.log.requests(ctx, keyId, query) };
  }

  @RequirePermission('settings.manage')
  @Get('usage')
  @ApiOkResponse({ type: KeyUsageResponse, description: "The key's requests of the last 24 hours" })
  @ApiOperation({ summary: "A key's 24-hour counts by status", operationId: 'getKeyUsage' })
  usage(@BrandCtx() ctx: BrandContext, @IdParam('keyId') keyId: number): Promise<KeyUsageResponse> {
    return this.log.usage(ctx, keyId);
  }
}
