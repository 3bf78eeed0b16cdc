import { Controller, Get } from '@nestjs/common';
import { HealthResponse } from './dto/health.responses';
import { ApiOkResponse, ApiOperation, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import { HealthCheck, HealthCheckService, TypeOrmHealthIndicator } from '@nestjs/terminus';
import { Public } from '../common/decorators/public.decorator';
import { AppError } from '../common/errors/app-error';
import { ErrorText } from '../common/errors/error-texts';

@ApiTags('operations')
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly database: TypeOrmHealthIndicator,
  ) {}

  @Public()
  @Get()
  @HealthCheck({ swaggerDocumentation: false })
  @ApiOkResponse({ type: HealthResponse, description: 'Once the database answers' })
  @ApiServiceUnavailableResponse({ description: 'Service unavailable' })
  @ApiOperation({ summary: 'Whether the service and its database answer', operationId: 'checkHealth' })
  async check(): Promise<HealthResponse> {
    try {
      const result = await this.health.check([() => this.database.pingCheck('database', { timeout: 2000 })]);
      return { status: result.status, details: result.details };
    } catch {
      throw AppError.unavailable([ErrorText.databaseNotAnswering]);
    }
  }
}
