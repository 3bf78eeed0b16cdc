import { LimitQueryDto } from '../common/validation/limit-query.dto';
import { SAFE_INT_MAX } from '../common/validation/integer-text';
import { QueryInt } from '../common/validation/query-int.decorator';

export class JournalQueryDto extends LimitQueryDto {
  @QueryInt({ min: 1, max: SAFE_INT_MAX, description: 'Entries after this one in the list (the next page)' })
  before?: number;
}
