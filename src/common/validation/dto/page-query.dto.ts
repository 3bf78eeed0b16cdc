import { INT4_MAX } from '../integer-text';
import { QueryInt } from '../query-int.decorator';
import { LimitQueryDto } from './limit-query.dto';

/**
 * How far `offset` may skip (contract §21): a page past it costs what it skips, so deeper pages
 * are asked for by `before`, which costs the same at any depth.
 */
export const MAX_OFFSET = 10_000;

/** The page of a list that takes both `offset` and `before` (orders, returns): `limit`, then either or both. */
export class PageQueryDto extends LimitQueryDto {
  @QueryInt({
    min: 0,
    max: MAX_OFFSET,
    default: 0,
    description: `Entries to skip, at most ${MAX_OFFSET}; page further with \`before\``,
    messageOverMax: `offset must be at most ${MAX_OFFSET}; page further with before=<id of the last entry>`,
  })
  offset: number = 0;

  @QueryInt({ min: 1, max: INT4_MAX, description: 'Only entries older than this id (the next page)' })
  before?: number;
}
