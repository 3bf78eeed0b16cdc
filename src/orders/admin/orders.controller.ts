import { Body, Controller, Get, Header, HttpCode, Query } from '@nestjs/common';
import { IdParam } from '../../common/decorators/id-param.decorator';
import { ApiConflictResponse, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { BrandContext } from '../../common/context/request-context';
import { BrandCtx } from '../../common/decorators/ctx.decorator';
import { KeyCheckedByStatement } from '../../access-keys/statement-key/key-checked-by-statement.decorator';
import { RequirePermission } from '../../common/decorators/require-permission.decorator';
import { JSON_CONTENT_TYPE, type JsonText } from '../../common/http/json-text';
import { CancelOrderDto } from '../dto/cancel-order.dto';
import { ListOrdersQueryDto } from '../dto/list-orders-query.dto';
import { PlatformOrderDto } from '../dto/platform-order.dto';
import { OrdersService } from './orders.service';
import { OrderListResponse, OrderResponse, PlatformOrderResponse } from '../dto/order.responses';
import { IdempotentPost } from '../../idempotency/idempotent-post.decorator';

@ApiTags('orders')
@Controller('orders/admin')
export class OrdersController {
  constructor(private readonly orders: OrdersService) {}

  /** Also the key check of spec §4.3: `?limit=1` answers 200 while the key is accepted. */
  @RequirePermission('orders.read')
  @KeyCheckedByStatement()
  @Get('all')
  @Header('content-type', JSON_CONTENT_TYPE)
  @ApiOkResponse({ type: OrderListResponse })
  @ApiOperation({ summary: "The brand's orders", operationId: 'listOrders' })
  list(@BrandCtx() ctx: BrandContext, @Query() query: ListOrdersQueryDto): Promise<JsonText<OrderListResponse>> {
    return this.orders.list(ctx, query);
  }

  @RequirePermission('orders.read')
  @Get(':orderId')
  @ApiOkResponse({ type: OrderResponse })
  @ApiOperation({ summary: 'One order', operationId: 'getOrder' })
  get(@BrandCtx() ctx: BrandContext, @IdParam('orderId') orderId: number): Promise<OrderResponse> {
    return this.orders.get(ctx, orderId);
  }

  @RequirePermission('orders.write')
  @IdempotentPost()
  @ApiCreatedResponse({ type: PlatformOrderResponse })
  @ApiOperation({ summary: 'Create an order by hand', operationId: 'createOrder' })
  create(@BrandCtx() ctx: BrandContext, @Body() body: PlatformOrderDto): Promise<PlatformOrderResponse> {
    return this.orders.createPlatformOrder(ctx, body);
  }

  @RequirePermission('orders.write')
  @IdempotentPost(':orderId/cancel')
  @HttpCode(200)
  @ApiOkResponse({ type: OrderResponse, description: 'The order, cancelled; the stock it took is back' })
  @ApiConflictResponse({ description: 'The order is not new or paid, or the carrier has (or is getting) it' })
  @ApiOperation({ summary: 'Cancel an order', operationId: 'cancelOrder' })
  cancel(
    @BrandCtx() ctx: BrandContext,
    @IdParam('orderId') orderId: number,
    @Body() body: CancelOrderDto,
  ): Promise<OrderResponse> {
    return this.orders.cancel(ctx, orderId, body.reason?.trim() || null);
  }
}
