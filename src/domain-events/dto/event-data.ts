import { ApiProperty } from '@nestjs/swagger';

/** What every event's data ends with (contract §10, §16). */
export abstract class EventData {
  @ApiProperty({
    type: 'integer',
    minimum: 1,
    description: "Counts the subject's events from 1: a receiver can tell an older message that arrives late",
  })
  sequence: number;
}
