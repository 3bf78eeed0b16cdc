import { Controller, HttpCode, Res } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import type { HttpReply } from '../../common/context/http-types';
import type { BrandContext } from '../../common/context/request-context';
import { BrandCtx } from '../../common/decorators/ctx.decorator';
import { KeyCheckedByStatement } from '../../access-keys/statement-key/key-checked-by-statement.decorator';
import { RequirePermission } from '../../common/decorators/require-permission.decorator';
import { PartnerWebhookResponse } from '../dto/order.responses';
import { PartnerOrderDto } from '../dto/partner-order.dto';
import { PartnerWebhookService } from './partner-webhook.service';
import { PartnerPreflightResponse } from '../dto/partner-preflight.responses';
import { PartnerPreflightService } from './partner-preflight.service';
import { ReadOnlyPost } from '../../idempotency/read-only-post.decorator';
import { IdempotentPost } from '../../idempotency/idempotent-post.decorator';
import { TolerantBody } from '../../common/validation/tolerant-body.decorator';

@ApiTags('storefront webhook')
@Controller('orders/integrations/partner')
export class PartnerWebhookController {
  constructor(
    private readonly webhook: PartnerWebhookService,
    private readonly preflight: PartnerPreflightService,
  ) {}

  @RequirePermission('orders.create_partner')
  @KeyCheckedByStatement()
  @IdempotentPost('webhook')
  @ApiCreatedResponse({ type: PartnerWebhookResponse, description: 'The order was created (duplicate: false)' })
  @ApiOkResponse({
    type: PartnerWebhookResponse,
    description: 'A repeat (duplicate: true): the first order, bodyMismatch: true if the body differed',
  })
  @ApiUnprocessableEntityResponse({ description: 'An item matches no product or size; nothing is created' })
  @ApiOperation({ summary: "A storefront's order (the storefront webhook)", operationId: 'acceptStorefrontOrder' })
  async accept(
    @BrandCtx() ctx: BrandContext,
    @TolerantBody() body: PartnerOrderDto,
    @Res({ passthrough: true }) response: HttpReply,
  ): Promise<PartnerWebhookResponse> {
    const outcome = await this.webhook.accept(ctx, body);
    response.status(outcome.status);
    return outcome.body;
  }

  /**
   * Not a hot path, so the key is checked by the guards (no KeyCheckedByStatement), and it writes
   * nothing, so no Idempotency-Key is recorded (ReadOnlyPost).
   */
  @RequirePermission('orders.create_partner')
  @ReadOnlyPost('preflight')
  @HttpCode(200)
  @ApiOkResponse({
    type: PartnerPreflightResponse,
    description: 'What the webhook would do with this body now: its matching, prices and totals; nothing is written',
  })
  @ApiOperation({ summary: 'Check a storefront order without writing it', operationId: 'preflightStorefrontOrder' })
  check(@BrandCtx() ctx: BrandContext, @TolerantBody() body: PartnerOrderDto): Promise<PartnerPreflightResponse> {
    return this.preflight.check(ctx, body);
  }
}
