import { Controller, HttpCode } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { SignedWebhook } from '../common/decorators/signed-webhook.decorator';
import { CarrierEventDto } from './dto/carrier-event.dto';
import { DeliveryService } from './delivery.service';
import { WebhookAck } from '../common/dto/webhook-ack';
import { IdempotentPost } from '../idempotency/idempotent-post.decorator';
import { TolerantBody } from '../common/validation/tolerant-body.decorator';

@ApiTags('inbound flows')
@Controller('carrier')
export class DeliveryController {
  constructor(private readonly delivery: DeliveryService) {}

  @SignedWebhook('carrier')
  @IdempotentPost('webhook')
  @HttpCode(200)
  @ApiNotFoundResponse({ description: 'No shipment with that id or tracking number; the event is not recorded' })
  @ApiOkResponse({ type: WebhookAck, description: 'Recorded; duplicate: true for an eventId recorded before' })
  @ApiOperation({ summary: "The carrier's signed delivery status", operationId: 'receiveCarrierEvent' })
  handle(@TolerantBody() body: CarrierEventDto): Promise<WebhookAck> {
    return this.delivery.handle(body);
  }
}
