import type { NestApplicationOptions } from '@nestjs/common';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { RawServerDefault } from 'fastify';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { Logger } from 'nestjs-pino';
import { answerClientError } from './common/http/client-error';
import { assertUtf8, parseJsonBody } from './common/http/json-body';
import { assignRequestId } from './common/http/request-id';
import { ErrorFilter } from './common/errors/error.filter';
import { SESSION_COOKIE } from './common/guards/authentication.guard';
import { createValidationPipe } from './common/validation/validation.pipe';

/**
 * Options for NestFactory.create: rawBody keeps the bytes as received for signed webhooks; the
 * JSON parser is set up in setupApp, and no other body type is accepted (415).
 */
export const APP_OPTIONS: NestApplicationOptions = { bufferLogs: true, rawBody: true, bodyParser: false };

export const BODY_LIMIT_BYTES = 1024 * 1024;

/**
 * Fastify under Nest: its router finds a route in a radix tree where Express tried each route's
 * pattern in turn, which with this many routes cost more than the rest of a key-checked read.
 */
export function createHttpAdapter(options: { trustProxy: boolean }): FastifyAdapter {
  return new FastifyAdapter({
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: options.trustProxy,
    genReqId: assignRequestId,
    clientErrorHandler: answerClientError,
  });
}

/** Everything between creating the app and listening; main.ts and the e2e suites share it. */
export function setupApp(app: NestFastifyApplication): NestFastifyApplication {
  app.useLogger(app.get(Logger));
  const fastify = app.getHttpAdapter().getInstance();
  fastify.addHook('onRequest', (request, reply, done) => {
    reply.header('X-Request-Id', request.id);
    done();
  });
  // JSON only: Fastify would otherwise hand text/plain bodies to the validators as strings.
  fastify.removeContentTypeParser('text/plain');
  // One JSON parser with our errors; an empty body reads as {} (clients send Content-Type:
  // application/json on bodiless POSTs).
  app.useBodyParser<RawServerDefault>('application/json', { bodyLimit: BODY_LIMIT_BYTES }, (request, body, done) => {
    try {
      assertUtf8(request.headers['content-type']);
      done(null, parseJsonBody(body.toString('utf8')));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
  app.useGlobalFilters(new ErrorFilter());
  app.useGlobalPipes(createValidationPipe());

  const document = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('Commerce integration layer')
      .setDescription('Access keys, production-site keys and inbound webhooks of the multi-brand commerce platform.')
      .setVersion('1')
      .addBearerAuth()
      .addCookieAuth(SESSION_COOKIE, { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE }, 'session')
      .build(),
  );
  SwaggerModule.setup('docs', app, document);
  return app;
}
