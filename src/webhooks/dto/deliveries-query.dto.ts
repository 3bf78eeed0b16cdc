import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsString, Matches } from 'class-validator';
import { OptionalNotNull } from '../../common/validation/field-decorators';
import { LimitQueryDto } from '../../common/validation/dto/limit-query.dto';

export class DeliveriesQueryDto extends LimitQueryDto {
  @ApiPropertyOptional({ enum: ['pending', 'succeeded', 'failed'] })
  @OptionalNotNull()
  @IsIn(['pending', 'succeeded', 'failed'])
  status?: 'pending' | 'succeeded' | 'failed';

  @ApiPropertyOptional({ description: 'A messageId: the deliveries older than its (the next page)' })
  @OptionalNotNull()
  @IsString()
  @Matches(/^msg_[0-9a-f]{32}$/, { message: 'before must be a messageId' })
  before?: string;
}
