import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { RequestContext } from '../common/context/request-context';
import { Ctx } from '../common/decorators/ctx.decorator';
import { SignedWebhook } from '../common/decorators/signed-webhook.decorator';
import { PaymentEventDto } from './dto/payment-event.dto';
import { PaymentsService } from './payments.service';

@ApiTags('inbound flows')
@Controller('payments')
export class PaymentsController {
  constructor(private readonly payments: PaymentsService) {}

  @SignedWebhook('payment')
  @Post('webhook')
  @HttpCode(200)
  @ApiOkResponse({ description: '{ok: true}, or {ok: true, duplicate: true} for a repeated eventId' })
  @ApiNotFoundResponse({ description: 'No order with that number; the event is not recorded' })
  handle(@Ctx() ctx: RequestContext, @Body() body: PaymentEventDto) {
    return this.payments.handle(ctx, body);
  }
}
