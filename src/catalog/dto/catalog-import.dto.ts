import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn } from 'class-validator';
import { OptionalNotNull } from '../../common/validation/field-decorators';

export class ImportQueryDto {
  @ApiPropertyOptional({
    enum: ['true', 'false'],
    description: 'true: check the file and answer what the import would do, changing nothing',
  })
  @OptionalNotNull()
  @IsIn(['true', 'false'], { message: 'dryRun must be true or false' })
  dryRun?: 'true' | 'false';
}

export class ImportResponse {
  @ApiProperty({ description: 'Products created' }) created: number;
  @ApiProperty({ description: 'Products changed (their own columns, or a size added or repriced)' }) updated: number;
  @ApiProperty({ description: 'Products the file names that it leaves as they were' }) unchanged: number;
  @ApiProperty({ description: 'Sizes added' }) sizesCreated: number;
  @ApiProperty({ description: 'Whether this was a dry run (nothing was changed)' }) dryRun: boolean;
}
