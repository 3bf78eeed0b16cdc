import { Body, Controller, Get, HttpCode, Put, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { BrandContext } from '../common/context/request-context';
import { BrandPathParam } from '../common/decorators/brand-path-param.decorator';
import { BrandCtx } from '../common/decorators/ctx.decorator';
import { RequirePermission, RequireRecentAuthentication } from '../common/decorators/require-permission.decorator';
import { IdempotentPost } from '../idempotency/idempotent-post.decorator';
import { ErasureDto, ExportQueryDto, RetentionDto } from './dto/personal-data.dto';
import { ErasureResponse, PersonalDataExportResponse, RetentionResponse } from './dto/personal-data.responses';
import { PersonalDataService } from './personal-data.service';

/** A brand's buyers' personal data (contract §17): the store's settings, so `settings.manage`. */
@ApiTags('personal data')
@BrandPathParam()
@Controller('admin/brands/:brandId/personal-data')
export class PersonalDataController {
  constructor(private readonly personalData: PersonalDataService) {}

  @RequirePermission('settings.manage')
  @RequireRecentAuthentication()
  @IdempotentPost('erasures')
  @HttpCode(200)
  @ApiOkResponse({ type: ErasureResponse })
  @ApiOperation({ summary: "Erase a buyer's personal data", operationId: 'erasePersonalData' })
  erase(@BrandCtx() ctx: BrandContext, @Body() body: ErasureDto): Promise<ErasureResponse> {
    return this.personalData.erase(ctx, body);
  }

  @RequirePermission('settings.manage')
  @RequireRecentAuthentication()
  @Get('export')
  @ApiOkResponse({ type: PersonalDataExportResponse })
  @ApiOperation({ summary: 'What the store holds of a buyer', operationId: 'exportPersonalData' })
  export(@BrandCtx() ctx: BrandContext, @Query() query: ExportQueryDto): Promise<PersonalDataExportResponse> {
    return this.personalData.export(ctx, query);
  }

  @RequirePermission('settings.manage')
  @Get('retention')
  @ApiOkResponse({ type: RetentionResponse })
  @ApiOperation({ summary: "The brand's personal-data retention", operationId: 'getRetention' })
  retention(@BrandCtx() ctx: BrandContext): Promise<RetentionResponse> {
    return this.personalData.retention(ctx);
  }

  @RequirePermission('settings.manage')
  @Put('retention')
  @ApiOkResponse({ type: RetentionResponse })
  @ApiOperation({ summary: "Change the brand's personal-data retention", operationId: 'setRetention' })
  setRetention(@BrandCtx() ctx: BrandContext, @Body() body: RetentionDto): Promise<RetentionResponse> {
    return this.personalData.setRetention(ctx, body.days);
  }
}
