import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, MaxLength } from 'class-validator';
import { OptionalNotNull } from '../../common/validation/field-decorators';
import { LONGEST_WAIT_SECONDS } from '../../common/rate-limit/waiting-slots';
import { QueryInt } from '../../common/validation/query-int.decorator';

/** `GET /events` (contract §16, its waits §20). */
export class ListEventsQueryDto {
  @QueryInt({ min: 1, max: 500, default: 100 })
  limit: number = 100;

  @QueryInt({
    min: 0,
    max: LONGEST_WAIT_SECONDS,
    default: 0,
    description:
      'When nothing is readable after the cursor, wait up to this many seconds for an event (contract §20); a key may have 10 waiting at once',
  })
  waitSeconds: number = 0;

  @ApiPropertyOptional({
    description: 'A nextCursor from an earlier answer: the events after it. Without it, from the oldest event kept',
  })
  @OptionalNotNull()
  @IsString({ message: 'after must be one cursor from an earlier answer' })
  after?: string;

  @ApiPropertyOptional({
    description: 'Only events of these types or prefixes, comma-separated; without it, every type the caller may read',
    example: 'order.*,return.refunded',
  })
  @OptionalNotNull()
  @IsString({ message: 'types must be one comma-separated list of event types' })
  @MaxLength(1000, { message: 'types must be at most 1000 characters' })
  types?: string;
}
