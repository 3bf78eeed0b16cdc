import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { BrandPathParam } from '../common/decorators/brand-path-param.decorator';
import type { BrandContext } from '../common/context/request-context';
import { BrandCtx } from '../common/decorators/ctx.decorator';
import { RequirePermission } from '../common/decorators/require-permission.decorator';
import { ParseIdPipe } from '../common/validation/parse-id.pipe';
import { IssueIntegrationKeyDto } from './dto/issue-integration-key.dto';
import { IntegrationKeysService } from './integration-keys.service';
import {
  IntegrationKeyListResponse,
  IntegrationKeyResponse,
  IssuedIntegrationKeyResponse,
} from './dto/integration-key.responses';

@ApiTags('integration keys')
@BrandPathParam()
@Controller('admin/brands/:brandId/integration-keys')
export class IntegrationKeysController {
  constructor(private readonly keys: IntegrationKeysService) {}

  @RequirePermission('settings.manage')
  @Post()
  @ApiCreatedResponse({ type: IssuedIntegrationKeyResponse })
  issue(@BrandCtx() ctx: BrandContext, @Body() body: IssueIntegrationKeyDto): Promise<IssuedIntegrationKeyResponse> {
    return this.keys.issue(ctx, body);
  }

  @RequirePermission('settings.manage')
  @Get()
  @ApiOkResponse({ type: IntegrationKeyListResponse })
  async list(@BrandCtx() ctx: BrandContext): Promise<IntegrationKeyListResponse> {
    return { items: await this.keys.list(ctx) };
  }

  @RequirePermission('settings.manage')
  @Post(':keyId/revoke')
  @HttpCode(200)
  @ApiOkResponse({ type: IntegrationKeyResponse })
  revoke(@BrandCtx() ctx: BrandContext, @Param('keyId', ParseIdPipe) keyId: number): Promise<IntegrationKeyResponse> {
    return this.keys.revoke(ctx, keyId);
  }
}
