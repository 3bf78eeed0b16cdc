import { ProductEventData } from '../../catalog/dto/product-event-data';
import type { EventData } from '../../domain-events/dto/event-data';
import type { EventFamily } from '../../events-api/event-families';
import { OrderEventData } from '../../orders/dto/order-event-data';
import { ReturnEventData } from '../../returns/dto/return-event-data';
import { StockChangedData } from '../../stock-ledger/dto/stock-changed-data';

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
