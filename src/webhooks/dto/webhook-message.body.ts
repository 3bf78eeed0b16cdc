import { ApiProperty, getSchemaPath } from '@nestjs/swagger';
import type { EventData } from '../../domain-events/dto/event-data';
import { EVENT_DATA_CLASSES } from './event-data-classes';
import { EVENT_TYPES } from '../event-types';

/** The data of `webhook.test`, sent to one endpoint by `POST …/:endpointId/test`: which endpoint it tested. */
export class WebhookTestData {
  @ApiProperty({ type: 'integer' }) endpointId: number;
}

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
