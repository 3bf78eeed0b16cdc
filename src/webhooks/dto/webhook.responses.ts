import { ApiProperty } from '@nestjs/swagger';

export class WebhookEndpointResponse {
  @ApiProperty() id: number;
  @ApiProperty() url: string;
  @ApiProperty({ type: [String] }) eventTypes: string[];
  @ApiProperty({ type: String, nullable: true }) description: string | null;
  @ApiProperty() enabled: boolean;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
}

export class CreatedWebhookEndpointResponse extends WebhookEndpointResponse {
  @ApiProperty({ description: '`whsec_` and the base64 of 32 random bytes: verify our signatures with it' })
  secret: string;
}

export class WebhookEndpointListResponse {
  @ApiProperty({ type: [WebhookEndpointResponse] }) items: WebhookEndpointResponse[];
}

export class WebhookSecretResponse {
  @ApiProperty() secret: string;
}

export class WebhookMessageRef {
  @ApiProperty({ description: 'The `webhook-id` of the message' }) messageId: string;
}

export class WebhookAttemptResponse {
  @ApiProperty({ format: 'date-time' }) at: string;
  @ApiProperty({ type: Number, nullable: true }) responseStatus: number | null;
  @ApiProperty() durationMs: number;
  @ApiProperty({ type: String, nullable: true }) error: string | null;
}

export class WebhookDeliveryResponse {
  @ApiProperty() messageId: string;
  @ApiProperty() eventType: string;
  @ApiProperty({ enum: ['pending', 'succeeded', 'failed'] }) status: 'pending' | 'succeeded' | 'failed';
  @ApiProperty({ type: [WebhookAttemptResponse] }) attempts: WebhookAttemptResponse[];
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) nextAttemptAt: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
}

export class WebhookDeliveryListResponse {
  @ApiProperty({ type: [WebhookDeliveryResponse] }) items: WebhookDeliveryResponse[];
}
