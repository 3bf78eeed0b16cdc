import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn } from 'class-validator';
import { OptionalNotNull } from '../../common/validation/field-decorators';
import { INT4_MAX } from '../../common/validation/integer-text';
import { PageQueryDto } from '../../common/validation/dto/page-query.dto';
import { QueryInt } from '../../common/validation/query-int.decorator';
import { RETURN_STATUSES, type ReturnStatus } from '../return-states';

export class ListReturnsQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ enum: RETURN_STATUSES })
  @OptionalNotNull()
  @IsIn(RETURN_STATUSES)
  status?: ReturnStatus;

  @QueryInt({ min: 1, max: INT4_MAX, description: 'Only the returns of this order' })
  orderId?: number;
}
