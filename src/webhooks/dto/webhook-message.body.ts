import { ApiProperty, getSchemaPath } from '@nestjs/swagger';
import { ProductEventData } from '../../catalog/dto/product-event-data';
import type { EventData } from '../../domain-events/dto/event-data';
import type { EventFamily } from '../../domain-events/event-types';
import { OrderEventData } from '../../orders/dto/order-event-data';
import { ReturnEventData } from '../../returns/dto/return-event-data';
import { StockChangedData } from '../../stock-ledger/dto/stock-changed-data';
import { EVENT_TYPES } from '../event-types';

/** The data of `webhook.test`, sent to one endpoint by `POST …/:endpointId/test`. */
export class WebhookTestData {
  @ApiProperty() endpointId: number;
}

/**
 * The data class of each family of event types: the class its owner builds the data from
 * (eventDataOf), so the OpenAPI document's `x-webhooks` describe what is sent. A new family
 * needs its entry here (the compiler asks for it).
 */
export const EVENT_DATA_CLASSES: Record<EventFamily['prefix'], abstract new () => EventData> = {
  order: OrderEventData,
  return: ReturnEventData,
  stock: StockChangedData,
  product: ProductEventData,
};

/** The body of every webhook message (contract §10), whatever its type. */
export class WebhookMessageBody {
  @ApiProperty({ enum: EVENT_TYPES }) type: string;
  @ApiProperty({ format: 'date-time', description: 'When the change happened (the same on every retry)' })
  timestamp: string;
  @ApiProperty({
    oneOf: [...Object.values(EVENT_DATA_CLASSES), WebhookTestData].map((model) => ({ $ref: getSchemaPath(model) })),
    description: "The type's data: x-webhooks gives each type's",
  })
  data: EventData | WebhookTestData;
}
