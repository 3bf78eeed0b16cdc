import { Body, Controller, Get, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { BrandContext } from '../common/context/request-context';
import { BrandCtx } from '../common/decorators/ctx.decorator';
import { RequirePermission } from '../common/decorators/require-permission.decorator';
import { AdjustmentDto } from './dto/adjustment.dto';
import { MovementsQueryDto } from './dto/movements-query.dto';
import { InventoryService } from './inventory.service';

@ApiTags('inventory')
@Controller('inventory')
export class InventoryController {
  constructor(private readonly inventory: InventoryService) {}

  @RequirePermission('stock.read')
  @Get('stock')
  stock(@BrandCtx() ctx: BrandContext) {
    return this.inventory.stock(ctx);
  }

  @RequirePermission('stock.read')
  @Get('movements')
  movements(@BrandCtx() ctx: BrandContext, @Query() query: MovementsQueryDto) {
    return this.inventory.movements(ctx, query);
  }

  @RequirePermission('stock.write')
  @Post('adjustments')
  adjust(@BrandCtx() ctx: BrandContext, @Body() body: AdjustmentDto) {
    return this.inventory.adjust(ctx, body);
  }
}
