import { Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { LoggerModule } from 'nestjs-pino';
import type { Environment } from './config/environment';
import { pinoHttpOptions } from './logging-options';

const REQUEST_LINE_LEVELS = ['trace', 'debug', 'info'];

/** Logs with the request id; each request's line names the key that made it (logging-options.ts). */
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
          pinoHttp: pinoHttpOptions(level, { requestLines, terminal: process.stdout.isTTY === true }),
        };
      },
    }),
  ],
})
export class LoggingModule {}
