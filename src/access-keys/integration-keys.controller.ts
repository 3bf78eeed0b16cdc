import { Body, Controller, Get, HttpCode, Patch } from '@nestjs/common';
import { IdParam } from '../common/decorators/id-param.decorator';
import { ApiConflictResponse, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { BrandPathParam } from '../common/decorators/brand-path-param.decorator';
import type { BrandContext } from '../common/context/request-context';
import { BrandCtx } from '../common/decorators/ctx.decorator';
import { RequirePermission, RequireRecentAuthentication } from '../common/decorators/require-permission.decorator';
import {
  IssueIntegrationKeyDto,
  RollIntegrationKeyDto,
  UpdateIntegrationKeyDto,
} from './dto/issue-integration-key.dto';
import { IntegrationKeysService } from './integration-keys.service';
import {
  IntegrationKeyListResponse,
  IntegrationKeyResponse,
  IssuedIntegrationKeyResponse,
} from './dto/integration-key.responses';
import { IdempotentPost } from '../idempotency/idempotent-post.decorator';

@ApiTags('integration keys')
@BrandPathParam()
@Controller('admin/brands/:brandId/integration-keys')
export class IntegrationKeysController {
  constructor(private readonly keys: IntegrationKeysService) {}

  @RequirePermission('settings.manage')
  @RequireRecentAuthentication()
  @IdempotentPost()
  @ApiCreatedResponse({ type: IssuedIntegrationKeyResponse })
  @ApiOperation({ summary: 'Issue an integration key (shown once)', operationId: 'issueIntegrationKey' })
  issue(@BrandCtx() ctx: BrandContext, @Body() body: IssueIntegrationKeyDto): Promise<IssuedIntegrationKeyResponse> {
    return this.keys.issue(ctx, body);
  }

  @RequirePermission('settings.manage')
  @Get()
  @ApiOkResponse({ type: IntegrationKeyListResponse })
  @ApiOperation({ summary: "The brand's integration keys", operationId: 'listIntegrationKeys' })
  async list(@BrandCtx() ctx: BrandContext): Promise<IntegrationKeyListResponse> {
    return { items: await this.keys.list(ctx) };
  }

  @RequirePermission('settings.manage')
  @IdempotentPost(':keyId/revoke')
  @HttpCode(200)
  @ApiOkResponse({ type: IntegrationKeyResponse })
  @ApiOperation({ summary: 'Revoke an integration key', operationId: 'revokeIntegrationKey' })
  revoke(@BrandCtx() ctx: BrandContext, @IdParam('keyId') keyId: number): Promise<IntegrationKeyResponse> {
    return this.keys.revoke(ctx, keyId);
  }

  @RequirePermission('settings.manage')
  @Get(':keyId')
  @ApiOkResponse({ type: IntegrationKeyResponse })
  @ApiOperation({ summary: 'One integration key', operationId: 'getIntegrationKey' })
  get(@BrandCtx() ctx: BrandContext, @IdParam('keyId') keyId: number): Promise<IntegrationKeyResponse> {
    return this.keys.get(ctx, keyId);
  }

  @RequirePermission('settings.manage')
  @Patch(':keyId')
  @ApiOkResponse({ type: IntegrationKeyResponse, description: 'The name and the allowlist; permissions stay fixed' })
  @ApiOperation({
    summary: "Change a key's name or the addresses it may be used from",
    operationId: 'updateIntegrationKey',
  })
  update(
    @BrandCtx() ctx: BrandContext,
    @IdParam('keyId') keyId: number,
    @Body() body: UpdateIntegrationKeyDto,
  ): Promise<IntegrationKeyResponse> {
    return this.keys.update(ctx, keyId, body);
  }

  @RequirePermission('settings.manage')
  @RequireRecentAuthentication()
  @IdempotentPost(':keyId/roll')
  @ApiCreatedResponse({
    type: IssuedIntegrationKeyResponse,
    description: "A new key with the old one's grants (shown once); the old key ends at oldKeyExpiresAt",
  })
  @ApiConflictResponse({ description: 'The key is revoked, expired or already rolled' })
  @ApiOperation({ summary: 'Replace a key, the old one valid for a while', operationId: 'rollIntegrationKey' })
  roll(
    @BrandCtx() ctx: BrandContext,
    @IdParam('keyId') keyId: number,
    @Body() body: RollIntegrationKeyDto,
  ): Promise<IssuedIntegrationKeyResponse> {
    return this.keys.roll(ctx, keyId, body.oldKeyExpiresAt);
  }
}
