import { Body, Controller, Get, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { BrandContext } from '../common/context/request-context';
import { BrandCtx } from '../common/decorators/ctx.decorator';
import { RequirePermission } from '../common/decorators/require-permission.decorator';
import { AdjustmentDto } from './dto/adjustment.dto';
import { MovementsQueryDto } from './dto/movements-query.dto';
import { InventoryService } from './inventory.service';
import { AdjustmentResponse, MovementsResponse, StockResponse } from './dto/inventory.responses';
import { IdempotentPost } from '../idempotency/idempotent-post.decorator';

@ApiTags('inventory')
@Controller('inventory')
export class InventoryController {
  constructor(private readonly inventory: InventoryService) {}

  @RequirePermission('stock.read')
  @Get('stock')
  @ApiOkResponse({ type: StockResponse })
  @ApiOperation({ summary: "Each size's stock", operationId: 'listStock' })
  stock(@BrandCtx() ctx: BrandContext): Promise<StockResponse> {
    return this.inventory.stock(ctx);
  }

  @RequirePermission('stock.read')
  @Get('movements')
  @ApiOkResponse({ type: MovementsResponse })
  @ApiOperation({ summary: 'The stock ledger', operationId: 'listStockMovements' })
  movements(@BrandCtx() ctx: BrandContext, @Query() query: MovementsQueryDto): Promise<MovementsResponse> {
    return this.inventory.movements(ctx, query);
  }

  @RequirePermission('stock.write')
  @IdempotentPost('adjustments')
  @ApiCreatedResponse({ type: AdjustmentResponse })
  @ApiOperation({ summary: "Change sizes' stock by deltas", operationId: 'adjustStock' })
  adjust(@BrandCtx() ctx: BrandContext, @Body() body: AdjustmentDto): Promise<AdjustmentResponse> {
    return this.inventory.adjust(ctx, body);
  }
}
