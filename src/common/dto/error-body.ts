import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** The body of every error answer, of every route and of the parser before routing (contract §2). */
export class ErrorBody {
  @ApiProperty({ description: 'The error text, exactly as the API contract quotes it', example: 'Validation failed' })
  error: string;

  @ApiPropertyOptional({ type: [String], description: 'One entry per problem, naming the field or line' })
  details?: string[];

  @ApiProperty({ description: 'The X-Request-Id of the request, to quote in a support request' })
  requestId: string;
}
