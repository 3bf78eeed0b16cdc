import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { SignedWebhook } from '../common/decorators/signed-webhook.decorator';
import { CarrierEventDto } from './dto/carrier-event.dto';
import { DeliveryService } from './delivery.service';

@ApiTags('inbound flows')
@Controller('carrier')
export class DeliveryController {
  constructor(private readonly delivery: DeliveryService) {}

  @SignedWebhook('carrier')
  @Post('webhook')
  @HttpCode(200)
  @ApiOkResponse({ description: '{ok: true}, or {ok: true, duplicate: true} for a repeated eventId' })
  @ApiNotFoundResponse({ description: 'No shipment with that id or tracking number; the event is not recorded' })
  handle(@Body() body: CarrierEventDto) {
    return this.delivery.handle(body);
  }
}
