import { Injectable } from '@nestjs/common';
import type { BrandContext } from '../common/context/request-context';
import { AppError } from '../common/errors/app-error';
import { ErrorText } from '../common/errors/error-texts';
import { BrandOwnership } from '../security-journal/brand-ownership';
import { decodeCursor, encodeCursor, START, type EventCursor } from '../domain-events/event-cursor';
import { WaitingSlots } from '../common/rate-limit/waiting-slots';
import { EventWaits } from './event-waits';
import { assertReadable, assertReadsSomeFamily, readableTypes } from './event-reading';
import type { EventPageResponse, EventResponse } from './dto/event.responses';
import type { ListEventsQueryDto } from './dto/list-events-query.dto';
import { EventsRepository, type EventRow } from '../domain-events/events.repository';

/** The events API (contract §16): what a caller may read of its brand's events, in stream order. */
@Injectable()
export class EventsService {
  constructor(
    private readonly events: EventsRepository,
    private readonly ownership: BrandOwnership,
    private readonly waits: EventWaits,
    private readonly slots: WaitingSlots,
  ) {}

  /** A page of events after the cursor; with `waitSeconds`, waits for one when there is none (contract §20). */
  async list(ctx: BrandContext, query: ListEventsQueryDto, abandoned: AbortSignal): Promise<EventPageResponse> {
    const types = readableTypes(query.types, ctx.principal!.permissionsIn(ctx.brandId));
    const after = cursorOf(query.after, ctx.brandId);
    const read = () => this.events.page(ctx.brandId, types, after, query.limit);
    const rows = query.waitSeconds > 0 ? await this.waitFor(ctx, read, query.waitSeconds, abandoned) : await read();
    const last = rows.at(-1);
    return {
      items: rows.map(view),
      nextCursor: encodeCursor(last ? { position: last.position, id: last.id } : after, ctx.brandId),
    };
  }

  /** `read` until it gives events, for at most `seconds`, in one of the key's waiting slots. */
  private async waitFor(
    ctx: BrandContext,
    read: () => Promise<EventRow[]>,
    seconds: number,
    abandoned: AbortSignal,
  ): Promise<EventRow[]> {
    const deadline = Date.now() + seconds * 1000;
    const since = this.waits.mark();
    // A page that is there at once is answered without taking a slot.
    const first = await read();
    if (first.length > 0) return first;
    const principal = ctx.principal!;
    const slot = await this.slots.take(`${principal.kind}:${principal.rateLimitKey ?? principal.id}`, seconds);
    if (!slot) throw AppError.tooManyRequests(ErrorText.tooManyWaiting, 1);
    try {
      return await this.waits.until(read, deadline, abandoned, since);
    } finally {
      slot.release();
    }
  }

  async get(ctx: BrandContext, eventId: number): Promise<EventResponse> {
    const held = ctx.principal!.permissionsIn(ctx.brandId);
    assertReadsSomeFamily(held);
    const row = await this.events.byId(eventId);
    const owned = await this.ownership.assertOwned(ctx, row && { ...row, brandId: row.brand_id }, {
      resource: 'event',
      id: eventId,
    });
    assertReadable(owned.type, held);
    return view(owned);
  }
}

function cursorOf(after: string | undefined, brandId: number): EventCursor {
  if (after === undefined) return START;
  const cursor = decodeCursor(after, brandId);
  if (!cursor) throw AppError.badRequest([ErrorText.malformedCursor]);
  return cursor;
}

const view = (row: EventRow): EventResponse => ({
  id: Number(row.id),
  type: row.type,
  occurredAt: row.occurred_at,
  data: row.data,
});
