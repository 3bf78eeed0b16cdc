import { Body, Controller, Get } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import { CatalogService } from '../catalog/catalog.service';
import type { BrandContext } from '../common/context/request-context';
import { BrandCtx } from '../common/decorators/ctx.decorator';
import { ProductionApi } from '../common/decorators/production-api.decorator';
import { AcceptanceDto } from '../inventory/dto/acceptance.dto';
import { InventoryService } from '../inventory/inventory.service';
import { SiteKeyPrincipal } from './site-key.principal';
import { ProductListResponse } from '../catalog/dto/product.responses';
import { AcceptanceResponse, QueueResponse } from '../inventory/dto/inventory.responses';
import { ProductionMeResponse } from './dto/production-site.responses';
import { IdempotentPost } from '../idempotency/idempotent-post.decorator';

@ApiTags('production API')
@ProductionApi()
@Controller('production-api')
export class ProductionApiController {
  constructor(
    private readonly catalog: CatalogService,
    private readonly inventory: InventoryService,
  ) {}

  /** Lets a site check its key: which site and which brand it works for. */
  @Get('me')
  @ApiOkResponse({ type: ProductionMeResponse })
  @ApiOperation({ summary: 'The calling site', operationId: 'getSite' })
  me(@BrandCtx() ctx: BrandContext): ProductionMeResponse {
    const { site, brand } = (ctx.principal as SiteKeyPrincipal).identity;
    return { site, brand };
  }

  @Get('catalog')
  @ApiOkResponse({ type: ProductListResponse })
  @ApiOperation({ summary: "The site's brand's catalog", operationId: 'getSiteCatalog' })
  async catalogOfBrand(@BrandCtx() ctx: BrandContext): Promise<ProductListResponse> {
    return { items: await this.catalog.catalogOf(ctx.brandId) };
  }

  @Get('queue')
  @ApiOkResponse({ type: QueueResponse })
  @ApiOperation({ summary: 'Orders waiting for the site', operationId: 'getSiteQueue' })
  queue(@BrandCtx() ctx: BrandContext): Promise<QueueResponse> {
    return this.inventory.queue(ctx.brandId);
  }

  @IdempotentPost('acceptances')
  @ApiUnprocessableEntityResponse({ description: 'An article or size is unknown; nothing is added' })
  @ApiCreatedResponse({ type: AcceptanceResponse })
  @ApiOperation({ summary: 'Accept orders for production', operationId: 'acceptForProduction' })
  accept(@BrandCtx() ctx: BrandContext, @Body() body: AcceptanceDto): Promise<AcceptanceResponse> {
    return this.inventory.accept(ctx, (ctx.principal as SiteKeyPrincipal).identity.site.id, body.items);
  }
}
