import { Body, Controller, Get, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { RequestContext } from '../common/context/request-context';
import { Ctx } from '../common/decorators/ctx.decorator';
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
  stock(@Ctx() ctx: RequestContext) {
    return this.inventory.stock(ctx);
  }

  @RequirePermission('stock.read')
  @Get('movements')
  movements(@Ctx() ctx: RequestContext, @Query() query: MovementsQueryDto) {
    return this.inventory.movements(ctx, query);
  }

  @RequirePermission('stock.write')
  @Post('adjustments')
  adjust(@Ctx() ctx: RequestContext, @Body() body: AdjustmentDto) {
    return this.inventory.adjust(ctx, body);
  }
}
