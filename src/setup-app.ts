import type { NestApplicationOptions } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import cookieParser from 'cookie-parser';
import { Logger } from 'nestjs-pino';
import { bodyParserErrors } from './common/http/body-parser-errors';
import { assignRequestId } from './common/http/request-id';
import { ErrorFilter } from './common/errors/error.filter';
import { createValidationPipe } from './common/validation/validation.pipe';
import type { Environment } from './config/environment';

/** Options for NestFactory.create; the body parser is set up in setupApp with our limit. */
export const APP_OPTIONS: NestApplicationOptions = { bufferLogs: true, rawBody: true, bodyParser: false };

export const BODY_LIMIT = '1mb';

/** Everything between creating the app and listening; main.ts and the e2e suites share it. */
export function setupApp(app: NestExpressApplication): NestExpressApplication {
  app.useLogger(app.get(Logger));
  const config = app.get<ConfigService<Environment, true>>(ConfigService);
  if (config.get('TRUST_PROXY', { infer: true })) app.set('trust proxy', true);
  app.disable('x-powered-by');
  // rawBody stays available on the request: signed webhooks verify the bytes as received.
  app.use(assignRequestId);
  app.useBodyParser('json', { limit: BODY_LIMIT });
  app.use(bodyParserErrors);
  app.use(cookieParser());
  app.useGlobalFilters(new ErrorFilter());
  app.useGlobalPipes(createValidationPipe());

  const document = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('Commerce integration layer')
      .setDescription('Access keys, production-site keys and inbound webhooks of the multi-brand commerce platform.')
      .setVersion('1')
      .addBearerAuth()
      .addCookieAuth('session')
      .build(),
  );
  SwaggerModule.setup('docs', app, document);
  return app;
}
