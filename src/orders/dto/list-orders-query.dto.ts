import { LimitQueryDto } from '../../common/validation/dto/limit-query.dto';
import { INT4_MAX } from '../../common/validation/integer-text';
import { QueryInt } from '../../common/validation/query-int.decorator';

export class ListOrdersQueryDto extends LimitQueryDto {
  @QueryInt({ min: 0, max: INT4_MAX, default: 0 })
  offset: number = 0;
}
