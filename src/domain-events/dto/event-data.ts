import { ApiProperty } from '@nestjs/swagger';
import { jsonbObjectOf, type SqlFieldsOf } from '../../database/json-object.sql';

/** What every event's data ends with (contract §10, §16). */
export abstract class EventData {
  @ApiProperty({
    minimum: 1,
    description: "Counts the subject's events from 1: a receiver can tell an older message that arrives late",
  })
  sequence: number;
}

/**
 * An event's data as the owner of its subject builds it, from the class that describes it: every
 * field but `sequence`, which the event's append adds (DomainEvents).
 */
export const eventDataOf = <T extends EventData>(fields: SqlFieldsOf<Omit<T, 'sequence'>>): string =>
  jsonbObjectOf<Omit<T, 'sequence'>>(fields);
