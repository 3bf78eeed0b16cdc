import { ApiProperty } from '@nestjs/swagger';

export class KeyRequestResponse {
  @ApiProperty() id: number;
  @ApiProperty({ format: 'date-time', description: 'When it was answered' }) at: string;
  @ApiProperty() method: string;
  @ApiProperty({ type: String, nullable: true, description: "The route's template; null when no route matched" })
  route: string | null;
  @ApiProperty({ description: 'The path, without the query' }) path: string;
  @ApiProperty() status: number;
  @ApiProperty({ type: String, nullable: true, description: "The answer's error text" }) error: string | null;
  @ApiProperty({ description: 'The X-Request-Id of the answer' }) requestId: string;
  @ApiProperty({ type: String, nullable: true }) idempotencyKey: string | null;
  @ApiProperty({ minimum: 0 }) durationMs: number;
  @ApiProperty() ip: string;
  @ApiProperty({
    minimum: 1,
    description:
      "How many answers the entry stands for: 1, or, for a key's 429s past the first few of a minute, all the rest of that minute's",
  })
  count: number;
}

export class KeyRequestListResponse {
  @ApiProperty({
    type: [KeyRequestResponse],
    description:
      'Newest first; every answer of 400 and above is listed (429s past a few a minute as one entry with their count), successful ones are not',
  })
  items: KeyRequestResponse[];
}

export class KeyUsageCounts {
  @ApiProperty({ minimum: 0 }) total: number;
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'integer', minimum: 1 },
    description: 'Requests by the status they were answered with',
    example: { '200': 1250, '422': 3 },
  })
  byStatus: Record<string, number>;
}

export class KeyErrorGroup {
  @ApiProperty() status: number;
  @ApiProperty({ type: String, nullable: true }) error: string | null;
  @ApiProperty({ minimum: 1 }) count: number;
  @ApiProperty({ format: 'date-time' }) lastAt: string;
}

export class KeyUsageResponse {
  @ApiProperty({ type: KeyUsageCounts, description: 'Every request of the last 24 hours' }) last24h: KeyUsageCounts;
  @ApiProperty({
    type: [KeyErrorGroup],
    description: 'Answers of 400 and above of the last 24 hours by status and text, most frequent first, at most 10',
  })
  topErrors: KeyErrorGroup[];
}
