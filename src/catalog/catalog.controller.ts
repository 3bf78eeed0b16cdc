import { Body, Controller, Get, Param, Patch } from '@nestjs/common';
import { ApiConflictResponse, ApiCreatedResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { BrandContext } from '../common/context/request-context';
import { BrandCtx } from '../common/decorators/ctx.decorator';
import { RequirePermission } from '../common/decorators/require-permission.decorator';
import { ParseIdPipe } from '../common/validation/parse-id.pipe';
import { CatalogService } from './catalog.service';
import { CreateProductDto } from './dto/create-product.dto';
import { UpdateProductDto } from './dto/update-product.dto';
import { ProductListResponse, ProductResponse } from './dto/product.responses';
import { IdempotentPost } from '../idempotency/idempotent-post.decorator';

@ApiTags('catalog')
@Controller('catalog/products')
export class CatalogController {
  constructor(private readonly catalog: CatalogService) {}

  @RequirePermission('products.write')
  @IdempotentPost()
  @ApiConflictResponse({ description: 'article or storefrontArticle already used in the brand' })
  @ApiCreatedResponse({ type: ProductResponse })
  create(@BrandCtx() ctx: BrandContext, @Body() body: CreateProductDto): Promise<ProductResponse> {
    return this.catalog.create(ctx, body);
  }

  @RequirePermission('products.read')
  @Get()
  @ApiOkResponse({ type: ProductListResponse })
  async list(@BrandCtx() ctx: BrandContext): Promise<ProductListResponse> {
    return { items: await this.catalog.list(ctx) };
  }

  @RequirePermission('products.read')
  @Get(':productId')
  @ApiOkResponse({ type: ProductResponse })
  get(@BrandCtx() ctx: BrandContext, @Param('productId', ParseIdPipe) productId: number): Promise<ProductResponse> {
    return this.catalog.get(ctx, productId);
  }

  @RequirePermission('products.write')
  @Patch(':productId')
  @ApiOkResponse({ type: ProductResponse })
  update(
    @BrandCtx() ctx: BrandContext,
    @Param('productId', ParseIdPipe) productId: number,
    @Body() body: UpdateProductDto,
  ): Promise<ProductResponse> {
    return this.catalog.update(ctx, productId, body);
  }
}
