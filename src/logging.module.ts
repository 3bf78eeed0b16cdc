import { Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { LoggerModule } from 'nestjs-pino';
import { requestIdOf } from './common/http/request-id';
import type { Environment } from './config/environment';

/**
 * Structured JSON logs with the request id. Requests are logged by method, path and status only:
 * no headers, no bodies, no query strings, so no key, password or token reaches a log.
 */
@Module({
  imports: [
    LoggerModule.forRootAsync({
      inject: [ConfigService],
      useFactory: (config: ConfigService<Environment, true>) => ({
        pinoHttp: {
          level: config.get('LOG_LEVEL', { infer: true }),
          // Request lines are info; above that level, skip the per-request bookkeeping entirely.
          autoLogging: ['trace', 'debug', 'info'].includes(config.get('LOG_LEVEL', { infer: true })),
          genReqId: requestIdOf,
          customLogLevel: (_req, res, error) => (error || res.statusCode >= 500 ? 'error' : 'info'),
          serializers: {
            req: (req: { id: string; method: string; url: string; remoteAddress?: string }) => ({
              id: req.id,
              method: req.method,
              path: req.url.split('?')[0],
              remoteAddress: req.remoteAddress,
            }),
            res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
          },
          redact: ['req.headers', 'res.headers'],
        },
      }),
    }),
  ],
})
export class LoggingModule {}
