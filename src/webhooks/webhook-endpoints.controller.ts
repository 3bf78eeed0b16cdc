import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Query } from '@nestjs/common';
import { IdParam } from '../common/decorators/id-param.decorator';
import {
  ApiAcceptedResponse,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import type { BrandContext } from '../common/context/request-context';
import { BrandPathParam } from '../common/decorators/brand-path-param.decorator';
import { BrandCtx } from '../common/decorators/ctx.decorator';
import { RequirePermission, RequireRecentAuthentication } from '../common/decorators/require-permission.decorator';
import { DeliveriesQueryDto } from './dto/deliveries-query.dto';
import { CreateWebhookEndpointDto, RotateSecretDto, UpdateWebhookEndpointDto } from './dto/webhook-endpoint.dto';
import {
  CreatedWebhookEndpointResponse,
  WebhookDeliveryListResponse,
  WebhookEndpointListResponse,
  WebhookEndpointResponse,
  WebhookMessageRef,
  WebhookSecretResponse,
} from './dto/webhook.responses';
import { MessageIdPipe } from './message-id.pipe';
import { WebhookEndpointsService } from './webhook-endpoints.service';
import { IdempotentPost } from '../idempotency/idempotent-post.decorator';

/** A brand's webhook endpoints (contract §10): the store's settings, so `settings.manage` and a session. */
@ApiTags('webhook endpoints')
@BrandPathParam()
@Controller('admin/brands/:brandId/webhook-endpoints')
export class WebhookEndpointsController {
  constructor(private readonly endpoints: WebhookEndpointsService) {}

  @RequirePermission('settings.manage')
  @IdempotentPost()
  @ApiCreatedResponse({ type: CreatedWebhookEndpointResponse })
  @ApiOperation({
    summary: 'Register a webhook endpoint (its secret shown once)',
    operationId: 'createWebhookEndpoint',
  })
  create(
    @BrandCtx() ctx: BrandContext,
    @Body() body: CreateWebhookEndpointDto,
  ): Promise<CreatedWebhookEndpointResponse> {
    return this.endpoints.create(ctx, body);
  }

  @RequirePermission('settings.manage')
  @Get()
  @ApiOkResponse({ type: WebhookEndpointListResponse })
  @ApiOperation({ summary: "The brand's webhook endpoints", operationId: 'listWebhookEndpoints' })
  async list(@BrandCtx() ctx: BrandContext): Promise<WebhookEndpointListResponse> {
    return { items: await this.endpoints.list(ctx) };
  }

  @RequirePermission('settings.manage')
  @Get(':endpointId')
  @ApiOkResponse({ type: WebhookEndpointResponse })
  @ApiOperation({ summary: 'One webhook endpoint', operationId: 'getWebhookEndpoint' })
  get(@BrandCtx() ctx: BrandContext, @IdParam('endpointId') endpointId: number): Promise<WebhookEndpointResponse> {
    return this.endpoints.get(ctx, endpointId);
  }

  @RequirePermission('settings.manage')
  @RequireRecentAuthentication()
  @Get(':endpointId/secret')
  @ApiOkResponse({ type: WebhookSecretResponse })
  @ApiOperation({ summary: "A webhook endpoint's signing secret", operationId: 'getWebhookSecret' })
  secret(@BrandCtx() ctx: BrandContext, @IdParam('endpointId') endpointId: number): Promise<WebhookSecretResponse> {
    return this.endpoints.secret(ctx, endpointId);
  }

  @RequirePermission('settings.manage')
  @Patch(':endpointId')
  @ApiOkResponse({ type: WebhookEndpointResponse })
  @ApiOperation({ summary: 'Change a webhook endpoint', operationId: 'updateWebhookEndpoint' })
  update(
    @BrandCtx() ctx: BrandContext,
    @IdParam('endpointId') endpointId: number,
    @Body() body: UpdateWebhookEndpointDto,
  ): Promise<WebhookEndpointResponse> {
    return this.endpoints.update(ctx, endpointId, body);
  }

  @RequirePermission('settings.manage')
  @Delete(':endpointId')
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'Deleted, with its pending deliveries' })
  @ApiOperation({ summary: 'Delete a webhook endpoint', operationId: 'deleteWebhookEndpoint' })
  delete(@BrandCtx() ctx: BrandContext, @IdParam('endpointId') endpointId: number): Promise<void> {
    return this.endpoints.delete(ctx, endpointId);
  }

  @RequirePermission('settings.manage')
  @RequireRecentAuthentication()
  @IdempotentPost(':endpointId/rotate-secret')
  @HttpCode(200)
  @ApiOkResponse({
    type: WebhookSecretResponse,
    description: 'The new secret; the old one signs beside it until it expires',
  })
  @ApiOperation({ summary: "Replace an endpoint's signing secret", operationId: 'rotateWebhookSecret' })
  rotate(
    @BrandCtx() ctx: BrandContext,
    @IdParam('endpointId') endpointId: number,
    @Body() body: RotateSecretDto,
  ): Promise<WebhookSecretResponse> {
    return this.endpoints.rotate(ctx, endpointId, body.oldSecretExpiresInSeconds);
  }

  @RequirePermission('settings.manage')
  @IdempotentPost(':endpointId/test')
  @HttpCode(202)
  @ApiAcceptedResponse({ type: WebhookMessageRef, description: 'A webhook.test message to this endpoint only' })
  @ApiOperation({ summary: 'Send a webhook.test message', operationId: 'sendTestWebhook' })
  test(@BrandCtx() ctx: BrandContext, @IdParam('endpointId') endpointId: number): Promise<WebhookMessageRef> {
    return this.endpoints.sendTest(ctx, endpointId);
  }

  @RequirePermission('settings.manage')
  @Get(':endpointId/deliveries')
  @ApiOkResponse({ type: WebhookDeliveryListResponse })
  @ApiOperation({ summary: "An endpoint's deliveries and their attempts", operationId: 'listWebhookDeliveries' })
  deliveries(
    @BrandCtx() ctx: BrandContext,
    @IdParam('endpointId') endpointId: number,
    @Query() query: DeliveriesQueryDto,
  ): Promise<WebhookDeliveryListResponse> {
    return this.endpoints.deliveriesOf(ctx, endpointId, query);
  }

  @RequirePermission('settings.manage')
  @IdempotentPost(':endpointId/deliveries/:messageId/retry')
  @HttpCode(202)
  @ApiParam({ name: 'messageId', example: 'msg_0123456789abcdef0123456789abcdef' })
  @ApiAcceptedResponse({ type: WebhookMessageRef, description: 'Sent again now, with the same webhook-id' })
  @ApiOperation({ summary: 'Send a delivery again', operationId: 'retryWebhookDelivery' })
  async retry(
    @BrandCtx() ctx: BrandContext,
    @IdParam('endpointId') endpointId: number,
    @Param('messageId', MessageIdPipe) messageId: string,
  ): Promise<WebhookMessageRef> {
    await this.endpoints.retry(ctx, endpointId, messageId);
    return { messageId };
  }
}
