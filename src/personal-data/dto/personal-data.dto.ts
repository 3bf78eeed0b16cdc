import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsString, Matches, Max, MaxLength, Min, ValidateIf } from 'class-validator';
import { OptionalNotNull } from '../../common/validation/field-decorators';
import { INT4_MAX } from '../../common/validation/integer-text';

const NOT_BLANK = /\S/;

/** The buyer whose data goes: exactly one of the three (contract §17). */
export class ErasureDto {
  @ApiPropertyOptional({ example: '+7 912 345-67-89', description: 'In any format the storefront could send' })
  @OptionalNotNull()
  @IsString()
  @Matches(NOT_BLANK, { message: 'phone must not be empty' })
  @MaxLength(50)
  phone?: string;

  @ApiPropertyOptional({ example: 'maria@example.com', description: 'Matched case-insensitively' })
  @OptionalNotNull()
  @IsString()
  @Matches(NOT_BLANK, { message: 'email must not be empty' })
  @MaxLength(254)
  email?: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: INT4_MAX, example: 42 })
  @OptionalNotNull()
  @IsInt()
  @Min(1)
  @Max(INT4_MAX)
  orderId?: number;
}

/** `GET …/personal-data/export`: exactly one of the two. */
export class ExportQueryDto {
  @ApiPropertyOptional({ example: '+7 912 345-67-89' })
  @OptionalNotNull()
  @IsString({ message: 'phone must be one text of 1 to 50 characters' })
  @Matches(NOT_BLANK, { message: 'phone must not be empty' })
  @MaxLength(50, { message: 'phone must be one text of 1 to 50 characters' })
  phone?: string;

  @ApiPropertyOptional({ example: 'maria@example.com' })
  @OptionalNotNull()
  @IsString({ message: 'email must be one text of 1 to 254 characters' })
  @Matches(NOT_BLANK, { message: 'email must not be empty' })
  @MaxLength(254, { message: 'email must be one text of 1 to 254 characters' })
  email?: string;
}

const daysText = 'days must be an integer from 0 to 3650, or null';

export class RetentionDto {
  @ApiProperty({
    type: 'integer',
    nullable: true,
    minimum: 0,
    maximum: 3650,
    example: 1095,
    description:
      'Orders in a final state are anonymised this many days after their last change of state; null keeps them',
  })
  @ValidateIf((o: RetentionDto) => o.days !== null)
  @IsInt({ message: daysText })
  @Min(0, { message: daysText })
  @Max(3650, { message: daysText })
  days: number | null;
}
