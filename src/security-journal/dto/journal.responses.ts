import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export class JournalActor {
  @ApiProperty({ description: 'user, integration_key, site_key or webhook' }) kind: string;
  @ApiProperty({ type: Number, nullable: true }) id: number | null;
}

export class JournalEntryResponse {
  @ApiProperty() id: number;
  @ApiProperty({ format: 'date-time' }) at: string;
  @ApiProperty() type: string;
  @ApiProperty({ type: Number, nullable: true }) brandId: number | null;
  @ApiProperty({ type: JournalActor, nullable: true }) actor: JournalActor | null;
  @ApiPropertyOptional({ description: 'The brand a cross-brand attempt aimed at' }) targetBrandId?: number;
  @ApiProperty({ type: String, nullable: true }) method: string | null;
  @ApiProperty({ type: String, nullable: true }) path: string | null;
  @ApiProperty({ type: String, nullable: true }) ip: string | null;
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'Never a key or a secret' })
  details: Record<string, unknown>;
  @ApiProperty({
    minimum: 1,
    description:
      'How many refusals the entry stands for: 1, or more when one key repeated the same refusal from one address within the minute of `at`',
  })
  count: number;
}

export class JournalListResponse {
  @ApiProperty({ type: [JournalEntryResponse] }) items: JournalEntryResponse[];
}
