import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiTags } from '@nestjs/swagger';
import { BrandPathParam } from '../common/decorators/brand-path-param.decorator';
import type { BrandContext } from '../common/context/request-context';
import { BrandCtx } from '../common/decorators/ctx.decorator';
import { RequirePermission } from '../common/decorators/require-permission.decorator';
import { ParseIdPipe } from '../common/validation/parse-id.pipe';
import { IssueIntegrationKeyDto } from './dto/issue-integration-key.dto';
import { IntegrationKeysService } from './integration-keys.service';

@ApiTags('integration keys')
@BrandPathParam()
@Controller('admin/brands/:brandId/integration-keys')
export class IntegrationKeysController {
  constructor(private readonly keys: IntegrationKeysService) {}

  @RequirePermission('settings.manage')
  @Post()
  @ApiCreatedResponse({ description: 'The key is in `key`, in this response only' })
  issue(@BrandCtx() ctx: BrandContext, @Body() body: IssueIntegrationKeyDto) {
    return this.keys.issue(ctx, body);
  }

  @RequirePermission('settings.manage')
  @Get()
  async list(@BrandCtx() ctx: BrandContext) {
    return { items: await this.keys.list(ctx) };
  }

  @RequirePermission('settings.manage')
  @Post(':keyId/revoke')
  @HttpCode(200)
  revoke(@BrandCtx() ctx: BrandContext, @Param('keyId', ParseIdPipe) keyId: number) {
    return this.keys.revoke(ctx, keyId);
  }
}
