import { LimitQueryDto } from '../../common/validation/dto/limit-query.dto';
import { INT4_MAX } from '../../common/validation/integer-text';
import { QueryInt } from '../../common/validation/query-int.decorator';

export class MovementsQueryDto extends LimitQueryDto {
  @QueryInt({ min: 1, max: INT4_MAX, description: 'Only the movements of this size (of the calling brand)' })
  sizeId?: number;
}
