import { ApiProperty } from '@nestjs/swagger';

export class OutboxJobResponse {
  @ApiProperty() id: number;
  @ApiProperty() kind: string;
  @ApiProperty({ type: 'object', additionalProperties: true }) payload: Record<string, unknown>;
  @ApiProperty() attempts: number;
  @ApiProperty({ type: String, nullable: true }) lastError: string | null;
  @ApiProperty({ format: 'date-time' }) runAfter: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) doneAt: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) failedAt: string | null;
}

export class OutboxCounts {
  @ApiProperty() pending: number;
  @ApiProperty() failed: number;
}

export class OutboxListResponse {
  @ApiProperty({ type: OutboxCounts }) counts: OutboxCounts;
  @ApiProperty({ type: [OutboxJobResponse] }) items: OutboxJobResponse[];
}
