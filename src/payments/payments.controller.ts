import { Controller, HttpCode } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { RequestContext } from '../common/context/request-context';
import { Ctx } from '../common/decorators/ctx.decorator';
import { SignedWebhook } from '../common/decorators/signed-webhook.decorator';
import { PaymentEventDto } from './dto/payment-event.dto';
import { PaymentsService } from './payments.service';
import { WebhookAck } from '../common/dto/webhook-ack';
import { IdempotentPost } from '../idempotency/idempotent-post.decorator';
import { TolerantBody } from '../common/validation/tolerant-body.decorator';

@ApiTags('inbound flows')
@Controller('payments')
export class PaymentsController {
  constructor(private readonly payments: PaymentsService) {}

  @SignedWebhook('payment')
  @IdempotentPost('webhook')
  @HttpCode(200)
  @ApiNotFoundResponse({ description: 'No order with that number; the event is not recorded' })
  @ApiOkResponse({ type: WebhookAck, description: 'Recorded; duplicate: true for an eventId recorded before' })
  @ApiOperation({ summary: "The bank's signed payment confirmation", operationId: 'receivePaymentEvent' })
  handle(@Ctx() ctx: RequestContext, @TolerantBody() body: PaymentEventDto): Promise<WebhookAck> {
    return this.payments.handle(ctx, body);
  }
}
