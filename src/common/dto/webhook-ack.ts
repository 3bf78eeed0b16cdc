import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** What a signed webhook (payment, carrier) answers once the event is recorded. */
export class WebhookAck {
  @ApiProperty({ enum: [true] })
  ok: true;

  @ApiPropertyOptional({ enum: [true], description: 'Present for an eventId already recorded: nothing changed' })
  duplicate?: true;
}
