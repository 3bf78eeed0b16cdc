import { Body, Controller, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiTags, ApiUnprocessableEntityResponse } from '@nestjs/swagger';
import type { HttpReply } from '../../common/context/http-types';
import type { BrandContext } from '../../common/context/request-context';
import { BrandCtx } from '../../common/decorators/ctx.decorator';
import { KeyCheckedByStatement } from '../../access-keys/statement-key/key-checked-by-statement.decorator';
import { RequirePermission } from '../../common/decorators/require-permission.decorator';
import { PartnerWebhookResponse } from '../dto/order.responses';
import { PartnerOrderDto } from '../dto/partner-order.dto';
import { PartnerWebhookService } from './partner-webhook.service';
import { IdempotentPost } from '../../idempotency/idempotent-post.decorator';

@ApiTags('storefront webhook')
@Controller('orders/integrations/partner')
export class PartnerWebhookController {
  constructor(private readonly webhook: PartnerWebhookService) {}

  @RequirePermission('orders.create_partner')
  @KeyCheckedByStatement()
  @IdempotentPost('webhook')
  @ApiCreatedResponse({ type: PartnerWebhookResponse, description: 'The order was created (duplicate: false)' })
  @ApiOkResponse({
    type: PartnerWebhookResponse,
    description: 'A repeat (duplicate: true): the first order, bodyMismatch: true if the body differed',
  })
  @ApiUnprocessableEntityResponse({ description: 'An item matches no product or size; nothing is created' })
  async accept(
    @BrandCtx() ctx: BrandContext,
    @Body() body: PartnerOrderDto,
    @Res({ passthrough: true }) response: HttpReply,
  ): Promise<PartnerWebhookResponse> {
    const outcome = await this.webhook.accept(ctx, body);
    response.status(outcome.status);
    return outcome.body;
  }
}
