import type { INestApplication, NestApplicationOptions } from '@nestjs/common';
import type { AbstractHttpAdapter } from '@nestjs/core';
import { ExpressAdapter, type NestExpressApplication } from '@nestjs/platform-express';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { ConfigService } from '@nestjs/config';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import type { RawServerDefault } from 'fastify';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Logger } from 'nestjs-pino';
import { ErrorFilter } from './common/errors/error.filter';
import { SESSION_COOKIE } from './common/guards/authentication.guard';
import { answerClientError } from './common/http/client-error';
import { answerFrameworkError } from './common/http/framework-error';
import { hasMalformedPath, malformedUrl } from './common/http/malformed-url';
import { jsonBodyOnly } from './common/http/express-body';
import type { StreamedBody } from './common/http/streamed-body';
import { CATALOG_IMPORT_BODY } from './catalog/catalog-import-body';
import { AppError } from './common/errors/app-error';
import { assertUtf8, parseJsonBody } from './common/http/json-body';
import { assignRequestId } from './common/http/request-id';
import { RequestOutcomes } from './common/http/request-outcomes';
import type { HttpRequest } from './common/context/http-types';
import { createValidationPipe } from './common/validation/validation.pipe';
import { describeStrictBodies } from './common/validation/strict-body-schemas';
import { describeValidationRules } from './common/validation/validation-rules-schemas';
import { describeResponseHeaders } from './common/http/response-headers.openapi';
import { describeIdempotentReplays } from './idempotency/idempotency.openapi';
import { ErrorBody } from './common/dto/error-body';
import { publicUrlOf, type Environment } from './config/environment';
import type { TrustProxy } from './config/trust-proxy';
import { signatureScheme } from './common/decorators/signed-webhook.decorator';
import { describeErrorBodies } from './common/errors/error-responses';
import { describeWebhookMessages, WEBHOOK_MESSAGE_MODELS } from './webhooks/webhook-messages.openapi';

/**
 * Options for NestFactory.create: rawBody keeps the bytes as received for signed webhooks; the
 * JSON parser is set up in setupApp, and no other body type is accepted (415).
 */
export const APP_OPTIONS: NestApplicationOptions = { bufferLogs: true, rawBody: true, bodyParser: false };

export const BODY_LIMIT_BYTES = 1024 * 1024;

/** The routes that read their own bodies after their guards; both platforms' body handling leaves those unread. */
const STREAMED_BODIES: readonly StreamedBody[] = [CATALOG_IMPORT_BODY];

export type HttpPlatform = 'fastify' | 'express';

/**
 * Fastify by default: its router finds a route in a radix tree where Express tries each route's
 * pattern in turn, which with this many routes costs more than the rest of a key-checked read.
 * Express (Nest's default, and the design card's) is first-class all the same (contract §14).
 */
/** Node's default `requestTimeout`, on both platforms. */
export const REQUEST_TIMEOUT_MS = 300_000;

export function createHttpAdapter(options: { platform?: HttpPlatform; trustProxy: TrustProxy }): AbstractHttpAdapter {
  if (options.platform === 'express') {
    const adapter = new ExpressAdapter();
    adapter.set('trust proxy', options.trustProxy);
    // The same headers as on Fastify: no ETag, no X-Powered-By.
    adapter.set('etag', false);
    adapter.disable('x-powered-by');
    return adapter;
  }
  return new FastifyAdapter({
    bodyLimit: BODY_LIMIT_BYTES,
    // Node's own limit on receiving a whole request (408 after it), which Express keeps and Fastify would lift: a
    // client that stalls mid-body does not hold its socket and buffer for ever.
    requestTimeout: REQUEST_TIMEOUT_MS,
    trustProxy: options.trustProxy,
    genReqId: (request: unknown) => assignRequestId(request as IncomingMessage),
    clientErrorHandler: answerClientError,
    frameworkErrors: answerFrameworkError,
    // As Express (non-strict routing) does: `/dashboard/` reaches the `/dashboard` route. And as on
    // Express, a long parameter reaches its route, whose check answers it (Node's header limit
    // bounds a URL anyway).
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: Number.MAX_SAFE_INTEGER },
  });
}

/** Everything between creating the app and listening; main.ts and the e2e suites share it. */
export function setupApp<T extends INestApplication>(app: T): T {
  app.useLogger(app.get(Logger));
  const filter = new ErrorFilter(app.getHttpAdapter() as AbstractHttpAdapter);
  const outcomes = app.get(RequestOutcomes);
  if (app.getHttpAdapter().getType() === 'express')
    setupExpress(app as unknown as NestExpressApplication, filter, outcomes);
  else setupFastify(app as unknown as NestFastifyApplication, outcomes);
  app.useGlobalFilters(filter);
  app.useGlobalPipes(createValidationPipe());

  const config = app.get<ConfigService<Environment, true>>(ConfigService);
  const publicUrl = publicUrlOf({
    PUBLIC_URL: config.get('PUBLIC_URL', { infer: true }),
    PORT: config.get('PORT', { infer: true }),
  });
  const document = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('Commerce integration layer')
      .setDescription('Access keys, production-site keys and inbound webhooks of the multi-brand commerce platform.')
      .setVersion('1')
      .addBearerAuth()
      .addCookieAuth(SESSION_COOKIE, { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE }, 'session')
      .addSecurity(signatureScheme('payment').name, signatureScheme('payment').scheme)
      .addSecurity(signatureScheme('carrier').name, signatureScheme('carrier').scheme)
      .addServer(publicUrl, 'This service')
      .build(),
    { extraModels: [ErrorBody, ...WEBHOOK_MESSAGE_MODELS] },
  );
  describeErrorBodies(document);
  describeStrictBodies(document);
  describeValidationRules(document);
  describeResponseHeaders(document);
  describeIdempotentReplays(document);
  describeWebhookMessages(document);
  SwaggerModule.setup('docs', app, document);
  return app;
}

function setupFastify(app: NestFastifyApplication, outcomes: RequestOutcomes): void {
  const fastify = app.getHttpAdapter().getInstance();
  if (outcomes.listening) {
    fastify.addHook('onResponse', (request, reply, done) => {
      outcomes.answered(request, request.routeOptions.url ?? null, reply.statusCode, reply.elapsedTime);
      done();
    });
  }
  // Nest's adapter runs its own onRequest hook on every request; ours in that slot saves a hook of
  // its own (a hook costs a request more than the header does: docs/performance.md, PERF-7).
  (app.getHttpAdapter() as unknown as FastifyAdapter).setOnRequestHook((request, reply, done) => {
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
  // A streamed route's type is left unread on that route, for the route to read after its guards; elsewhere it is
  // the 415 of any type but JSON.
  for (const type of new Set(STREAMED_BODIES.map((route) => route.mediaType))) {
    const routes = new Set(STREAMED_BODIES.filter((route) => route.mediaType === type).map((route) => route.url));
    fastify.addContentTypeParser(type, (request, _payload, done) => {
      if (routes.has(request.routeOptions.url ?? '')) done(null, undefined);
      else if (request.is404)
        done(null, undefined); // an unknown route stays a 404, as with no parser
      else done(AppError.unsupportedMediaType(), undefined);
    });
  }
}

function setupExpress(app: NestExpressApplication, filter: ErrorFilter, outcomes: RequestOutcomes): void {
  app.getHttpServer().on('clientError', answerClientError);
  const listening = outcomes.listening;
  forgetMiddlewareRoutes(app.getHttpAdapter() as unknown as ExpressAdapter);
  // The first middleware of Nest's Express adapter calls this hook: one middleware fewer than our own.
  (app.getHttpAdapter() as unknown as ExpressAdapter).setOnRequestHook(
    (request: IncomingMessage, response: ServerResponse, next: (e?: unknown) => void) => {
      response.setHeader('X-Request-Id', assignRequestId(request));
      if (listening) {
        const start = performance.now();
        response.once('finish', () => {
          // Express's router leaves the matched route on the request (none on a 404 without one).
          const route = (request as { route?: { path?: unknown } }).route?.path;
          outcomes.answered(
            request as unknown as HttpRequest,
            typeof route === 'string' ? route : null,
            response.statusCode,
            performance.now() - start,
          );
        });
      }
      // What Fastify's router refuses, refused here too, before routing: a 400 whatever the path.
      if (hasMalformedPath(request.url ?? '')) return next(malformedUrl());
      next();
    },
  );
  app.use(jsonBodyOnly(BODY_LIMIT_BYTES, filter, STREAMED_BODIES));
}

/**
 * Express leaves on the request the last route whose path matched, and Nest mounts middleware as
 * routes too (nestjs-pino's `/{*path}` once request lines are logged): a request that reaches Nest's
 * not-found handler was taken by no controller, so it keeps no route, and is counted `unmatched` as
 * on Fastify. Nest installs that handler at init, after setupApp.
 */
function forgetMiddlewareRoutes(adapter: ExpressAdapter): void {
  const install = adapter.setNotFoundHandler.bind(adapter);
  adapter.setNotFoundHandler = (handler: (...args: unknown[]) => unknown, prefix?: string): unknown =>
    install((request: { route?: unknown }, ...rest: unknown[]) => {
      request.route = undefined;
      return handler(request, ...rest);
    }, prefix);
}
