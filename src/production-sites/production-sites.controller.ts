import { Body, Controller, Get, HttpCode, Patch } from '@nestjs/common';
import { IdParam } from '../common/decorators/id-param.decorator';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { BrandPathParam } from '../common/decorators/brand-path-param.decorator';
import type { BrandContext } from '../common/context/request-context';
import { BrandCtx } from '../common/decorators/ctx.decorator';
import { RequirePermission } from '../common/decorators/require-permission.decorator';
import { CreateProductionSiteDto } from './dto/create-production-site.dto';
import { UpdateProductionSiteDto } from './dto/update-production-site.dto';
import { ProductionSitesService } from './production-sites.service';
import {
  IssuedSiteKeyResponse,
  SiteKeyListResponse,
  SiteKeyResponse,
  SiteListResponse,
  SiteResponse,
} from './dto/production-site.responses';
import { IdempotentPost } from '../idempotency/idempotent-post.decorator';

@ApiTags('production sites')
@BrandPathParam()
@Controller('admin/brands/:brandId/production-sites')
export class ProductionSitesController {
  constructor(private readonly sites: ProductionSitesService) {}

  @RequirePermission('settings.manage')
  @IdempotentPost()
  @ApiCreatedResponse({ type: SiteResponse })
  @ApiOperation({ summary: 'Create a production site', operationId: 'createProductionSite' })
  create(@BrandCtx() ctx: BrandContext, @Body() body: CreateProductionSiteDto): Promise<SiteResponse> {
    return this.sites.create(ctx, body);
  }

  @RequirePermission('settings.manage')
  @Get()
  @ApiOkResponse({ type: SiteListResponse })
  @ApiOperation({ summary: "The brand's production sites", operationId: 'listProductionSites' })
  async list(@BrandCtx() ctx: BrandContext): Promise<SiteListResponse> {
    return { items: await this.sites.list(ctx) };
  }

  @RequirePermission('settings.manage')
  @Patch(':siteId')
  @ApiOkResponse({ type: SiteResponse })
  @ApiOperation({ summary: 'Change a production site', operationId: 'updateProductionSite' })
  update(
    @BrandCtx() ctx: BrandContext,
    @IdParam('siteId') siteId: number,
    @Body() body: UpdateProductionSiteDto,
  ): Promise<SiteResponse> {
    return this.sites.update(ctx, siteId, body);
  }

  @RequirePermission('settings.manage')
  @IdempotentPost(':siteId/keys')
  @ApiCreatedResponse({ type: IssuedSiteKeyResponse })
  @ApiOperation({ summary: "Issue a site's key (shown once)", operationId: 'issueSiteKey' })
  issueKey(@BrandCtx() ctx: BrandContext, @IdParam('siteId') siteId: number): Promise<IssuedSiteKeyResponse> {
    return this.sites.issueKey(ctx, siteId);
  }

  @RequirePermission('settings.manage')
  @Get(':siteId/keys')
  @ApiOkResponse({ type: SiteKeyListResponse, description: 'Never the keys themselves' })
  @ApiOperation({ summary: "A site's keys", operationId: 'listSiteKeys' })
  async keys(@BrandCtx() ctx: BrandContext, @IdParam('siteId') siteId: number): Promise<SiteKeyListResponse> {
    return { items: await this.sites.keysOf(ctx, siteId) };
  }

  @RequirePermission('settings.manage')
  @IdempotentPost(':siteId/keys/:keyId/revoke')
  @HttpCode(200)
  @ApiOkResponse({ type: SiteKeyResponse })
  @ApiOperation({ summary: "Revoke a site's key", operationId: 'revokeSiteKey' })
  revokeKey(
    @BrandCtx() ctx: BrandContext,
    @IdParam('siteId') siteId: number,
    @IdParam('keyId') keyId: number,
  ): Promise<SiteKeyResponse> {
    return this.sites.revokeKey(ctx, siteId, keyId);
  }
}
