import { Controller, Get, Query, Req } from '@nestjs/common';
import { IdParam } from '../common/decorators/id-param.decorator';
import { SAFE_INT_MAX } from '../common/validation/integer-text';
import {
  ApiBadRequestResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  ApiTooManyRequestsResponse,
} from '@nestjs/swagger';
import type { HttpRequest } from '../common/context/http-types';
import { clientGone } from '../common/http/client-gone';
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
  @ApiBadRequestResponse({
    description: `${ErrorText.malformedCursor} | an unknown event type | limit out of 1–500 | waitSeconds out of 0–30`,
  })
  @ApiTooManyRequestsResponse({ description: `${ErrorText.tooManyWaiting}: the key has 10 requests waiting already` })
  @ApiOperation({ summary: "The brand's events after a cursor; may wait for the next", operationId: 'listEvents' })
  async list(
    @BrandCtx() ctx: BrandContext,
    @Query() query: ListEventsQueryDto,
    @Req() request: HttpRequest,
  ): Promise<EventPageResponse> {
    const gone = clientGone(request);
    try {
      return await this.events.list(ctx, query, gone.signal);
    } finally {
      gone.dispose();
    }
  }

  @PermissionsCheckedByService(FIRST, ...REST)
  @Get(':eventId')
  @ApiOkResponse({ type: EventResponse })
  @ApiNotFoundResponse({ description: ErrorText.notFound })
  @ApiOperation({ summary: 'One event', operationId: 'getEvent' })
  get(
    @BrandCtx() ctx: BrandContext,
    @IdParam('eventId', EventIdPipe, SAFE_INT_MAX) eventId: number,
  ): Promise<EventResponse> {
    return this.events.get(ctx, eventId);
  }
}
