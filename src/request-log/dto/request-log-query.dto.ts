import { LimitQueryDto } from '../../common/validation/dto/limit-query.dto';
import { SAFE_INT_MAX } from '../../common/validation/integer-text';
import { QueryInt } from '../../common/validation/query-int.decorator';

export class RequestLogQueryDto extends LimitQueryDto {
  @QueryInt({ min: 1, max: SAFE_INT_MAX, description: 'Requests after this one in the list (the next page)' })
  before?: number;
}
