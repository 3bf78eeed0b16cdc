import { ApiPropertyOptional } from '@nestjs/swagger';
import { Matches } from 'class-validator';
import { OptionalNotNull } from '../../common/validation/field-decorators';
import { LimitQueryDto } from '../../common/validation/dto/limit-query.dto';
import { SAFE_INT_MAX } from '../../common/validation/integer-text';
import { QueryInt } from '../../common/validation/query-int.decorator';

export class JournalQueryDto extends LimitQueryDto {
  @QueryInt({ min: 1, max: SAFE_INT_MAX, description: 'Entries after this one in the list (the next page)' })
  before?: number;

  @ApiPropertyOptional({
    description: 'Only entries of these types, comma-separated',
    example: 'brand_violation,ip_not_allowed',
  })
  @OptionalNotNull()
  @Matches(/^[a-z_]{1,64}(,[a-z_]{1,64}){0,19}$/, { message: 'type must be up to 20 comma-separated entry types' })
  type?: string;
}
