import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiNotFoundResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { BrandContext } from '../common/context/request-context';
import { BrandCtx } from '../common/decorators/ctx.decorator';
import { PermissionsCheckedByService } from '../common/decorators/require-permission.decorator';
import { ErrorText } from '../common/errors/error-texts';
import { EventPageResponse, EventResponse } from './dto/event.responses';
import { ListEventsQueryDto } from './dto/list-events-query.dto';
import { EventIdPipe } from './event-id.pipe';
import { EVENT_READ_PERMISSIONS } from './event-families';
import { EventsService } from './events.service';

const [FIRST, ...REST] = EVENT_READ_PERMISSIONS;

/** Reading events (contract §16): the pull twin of the outbound webhooks, to reconcile. */
@ApiTags('events')
@Controller('events')
export class EventsController {
  constructor(private readonly events: EventsService) {}

  @PermissionsCheckedByService(FIRST, ...REST)
  @Get()
  @ApiOkResponse({ type: EventPageResponse })
  @ApiBadRequestResponse({ description: `${ErrorText.malformedCursor} | an unknown event type | limit out of 1–500` })
  list(@BrandCtx() ctx: BrandContext, @Query() query: ListEventsQueryDto): Promise<EventPageResponse> {
    return this.events.list(ctx, query);
  }

  @PermissionsCheckedByService(FIRST, ...REST)
  @Get(':eventId')
  @ApiOkResponse({ type: EventResponse })
  @ApiNotFoundResponse({ description: ErrorText.notFound })
  get(@BrandCtx() ctx: BrandContext, @Param('eventId', EventIdPipe) eventId: number): Promise<EventResponse> {
    return this.events.get(ctx, eventId);
  }
}
