import { Body, Controller, Get, HttpCode, Patch, Query, StreamableFile, UseInterceptors } from '@nestjs/common';
import { IdParam } from '../common/decorators/id-param.decorator';
import {
  ApiBody,
  ApiConflictResponse,
  ApiConsumes,
  ApiCreatedResponse,
  ApiOkResponse,
  ApiOperation,
  ApiPayloadTooLargeResponse,
  ApiProduces,
  ApiTags,
  ApiTooManyRequestsResponse,
  ApiUnprocessableEntityResponse,
  ApiUnsupportedMediaTypeResponse,
} from '@nestjs/swagger';
import { CsvUpload } from './catalog-import-body';
import { CatalogImportUploadInterceptor } from './catalog-import-upload.interceptor';
import { CatalogImportService } from './catalog-import.service';
import { ImportQueryDto, ImportResponse } from './dto/catalog-import.dto';
import type { BrandContext } from '../common/context/request-context';
import { BrandCtx } from '../common/decorators/ctx.decorator';
import { RequirePermission } from '../common/decorators/require-permission.decorator';
import { CatalogService } from './catalog.service';
import { CreateProductDto } from './dto/create-product.dto';
import { UpdateProductDto } from './dto/update-product.dto';
import { ProductListResponse, ProductResponse } from './dto/product.responses';
import { IdempotentPost } from '../idempotency/idempotent-post.decorator';

@ApiTags('catalog')
@Controller('catalog/products')
export class CatalogController {
  constructor(
    private readonly catalog: CatalogService,
    private readonly transfer: CatalogImportService,
  ) {}

  @RequirePermission('products.write')
  @IdempotentPost()
  @ApiConflictResponse({ description: 'article or storefrontArticle already used in the brand' })
  @ApiCreatedResponse({ type: ProductResponse })
  @ApiOperation({ summary: 'Create a product with its sizes', operationId: 'createProduct' })
  create(@BrandCtx() ctx: BrandContext, @Body() body: CreateProductDto): Promise<ProductResponse> {
    return this.catalog.create(ctx, body);
  }

  @RequirePermission('products.read')
  @Get()
  @ApiOkResponse({ type: ProductListResponse })
  @ApiOperation({ summary: "The brand's products", operationId: 'listProducts' })
  async list(@BrandCtx() ctx: BrandContext): Promise<ProductListResponse> {
    return { items: await this.catalog.list(ctx) };
  }

  /** Before `:productId`, which Express would otherwise try first. */
  @RequirePermission('products.read')
  @Get('export')
  @ApiProduces('text/csv')
  @ApiOkResponse({
    description:
      'header article,name,storefrontArticle,priceKopeks,size,sizePriceKopeks; a line per size, in article order',
    content: { 'text/csv': { schema: { type: 'string' } } },
  })
  @ApiOperation({ summary: 'The catalog as CSV', operationId: 'exportProducts' })
  export(@BrandCtx() ctx: BrandContext): StreamableFile {
    return new StreamableFile(this.transfer.export(ctx), {
      type: 'text/csv; charset=utf-8',
      disposition: 'attachment; filename="catalog.csv"',
    });
  }

  @RequirePermission('products.write')
  @IdempotentPost('import')
  // Below @IdempotentPost, so it runs first: the key's claim remembers the file's digest.
  @UseInterceptors(CatalogImportUploadInterceptor)
  @HttpCode(200)
  @ApiConsumes('text/csv')
  @ApiBody({
    description:
      'UTF-8 CSV (a byte-order mark allowed), `,` or `;` as the header line uses, RFC 4180 quoting; columns article (required), name, storefrontArticle, priceKopeks, size, sizePriceKopeks; at most 10 000 lines and 5 MiB',
    schema: { type: 'string' },
  })
  @ApiOkResponse({ type: ImportResponse })
  @ApiUnprocessableEntityResponse({ description: 'Import has errors: details has "line N: …" for every wrong line' })
  @ApiPayloadTooLargeResponse({ description: 'over 10 000 data lines or 5 MiB' })
  @ApiUnsupportedMediaTypeResponse({ description: 'a Content-Type other than text/csv (UTF-8), or a Content-Encoding' })
  @ApiTooManyRequestsResponse({
    description:
      'too many imports at once on the instance or of the caller, or the catalog busy too long (Retry-After)',
  })
  @ApiOperation({ summary: 'Create and update products from CSV, all or nothing', operationId: 'importProducts' })
  import(
    @BrandCtx() ctx: BrandContext,
    @Query() query: ImportQueryDto,
    @Body() body: unknown,
  ): Promise<ImportResponse> {
    const bytes = body instanceof CsvUpload ? body.bytes : Buffer.alloc(0);
    return this.transfer.import(ctx, bytes, query.dryRun === 'true');
  }

  @RequirePermission('products.read')
  @Get(':productId')
  @ApiOkResponse({ type: ProductResponse })
  @ApiOperation({ summary: 'One product', operationId: 'getProduct' })
  get(@BrandCtx() ctx: BrandContext, @IdParam('productId') productId: number): Promise<ProductResponse> {
    return this.catalog.get(ctx, productId);
  }

  @RequirePermission('products.write')
  @Patch(':productId')
  @ApiOkResponse({ type: ProductResponse })
  @ApiOperation({ summary: 'Change a product or its sizes', operationId: 'updateProduct' })
  update(
    @BrandCtx() ctx: BrandContext,
    @IdParam('productId') productId: number,
    @Body() body: UpdateProductDto,
  ): Promise<ProductResponse> {
    return this.catalog.update(ctx, productId, body);
  }
}
