import { ApiProperty } from '@nestjs/swagger';

/**
 * An event as the events API reads it (contract §16): `data` and `occurredAt` are its webhook
 * message's. The document describes it as one variant per family, each `type` with its data class
 * (describeWebhookMessages, in the webhooks module, whose classes this module cannot name).
 */
export class EventResponse {
  @ApiProperty() id: number;
  @ApiProperty({ example: 'order.paid' }) type: string;
  @ApiProperty({ format: 'date-time', description: "The webhook message's timestamp" }) occurredAt: string;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: "Exactly the webhook message's data: the subject as the change left it, with its sequence",
  })
  data: Record<string, unknown>;
}

export class EventPageResponse {
  @ApiProperty({ type: [EventResponse], description: 'In the order events are read: no skips, no repeats' })
  items: EventResponse[];
  @ApiProperty({
    description: 'Always present: passed back as `after`, gives the events after the last one here (or none yet)',
  })
  nextCursor: string;
}
