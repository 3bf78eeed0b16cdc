import { Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { LoggerModule } from 'nestjs-pino';
import { requestIdOf } from './common/http/request-id';
import type { Environment } from './config/environment';

const REQUEST_LINE_LEVELS = ['trace', 'debug', 'info'];

/** What pino's request serializer hands ours; `raw` is the request it was made from. */
interface RequestLogFields {
  id: string;
  method: string;
  url: string;
  remoteAddress?: string;
  raw: { ip?: string };
}

/**
 * Structured JSON logs with the request id. Requests are logged by method, path and status only:
 * no headers, no bodies, no query strings, so no key, password or token reaches a log.
 */
@Module({
  imports: [
    LoggerModule.forRootAsync({
      inject: [ConfigService],
      useFactory: (config: ConfigService<Environment, true>) => {
        const level = config.get('LOG_LEVEL', { infer: true });
        const requestLines = REQUEST_LINE_LEVELS.includes(level);
        return {
          // Request lines are info. Above that level the per-request logger is not installed at
          // all: pino-http would still build (and serialize) a child logger for every request.
          forRoutes: requestLines ? undefined : [],
          pinoHttp: {
            level,
            autoLogging: requestLines,
            genReqId: requestIdOf,
            customLogLevel: (_req, res, error) => (error || res.statusCode >= 500 ? 'error' : 'info'),
            serializers: {
              req: (req: RequestLogFields) => ({
                id: req.id,
                method: req.method,
                path: req.url.split('?')[0],
                // The client address of allowlists and the journal (TRUST_PROXY), not the socket's peer:
                // Express's request has it, and on Fastify middie copies it onto the raw request.
                remoteAddress: req.raw.ip ?? req.remoteAddress,
              }),
              res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
            },
            redact: ['req.headers', 'res.headers'],
          },
        };
      },
    }),
  ],
})
export class LoggingModule {}
