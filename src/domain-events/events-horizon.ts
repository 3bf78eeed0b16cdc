import { Injectable } from '@nestjs/common';
import { EventsRepository } from './events.repository';

/** What other modules may know of the events API's horizon: how far behind it is held (the metrics read it). */
@Injectable()
export class EventsHorizon {
  constructor(private readonly events: EventsRepository) {}

  /** How long this database's oldest write transaction has held the readers back, in seconds (0 when none). */
  lagSeconds(): Promise<number> {
    return this.events.horizonLagSeconds();
  }
}
