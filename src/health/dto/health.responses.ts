import { ApiProperty } from '@nestjs/swagger';

export class HealthResponse {
  @ApiProperty({ enum: ['ok'] }) status: string;
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'object', properties: { status: { type: 'string' } } },
    example: { database: { status: 'up' } },
  })
  details: Record<string, { status: string }>;
}
