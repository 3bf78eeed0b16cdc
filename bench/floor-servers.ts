/**
 * The smallest servers that answer `GET /production-api/me` as the service does (a bearer header
 * checked, a small JSON body): node:http alone, Fastify alone, Nest on Fastify, and Nest on
 * Fastify with the service's request pipeline (four global async guards, the global validation
 * pipe, a parameter decorator, an onRequest hook setting X-Request-Id), and that pipeline with the
 * service's watchers of requests (`nest-watched`: the request's context made with an integration
 * key's principal, as the guards make it, and the RequestOutcomes hook feeding the request log's
 * count and the metrics' histogram). No database: what each layer costs a request, measured by
 * framework-floor.ts.
 *   ts-node --transpile-only bench/floor-servers.ts KIND PORT
 */
import 'reflect-metadata';
import { createServer } from 'node:http';
import {
  Controller,
  Get,
  Injectable,
  Module,
  ValidationPipe,
  createParamDecorator,
  type CanActivate,
  type ExecutionContext,
} from '@nestjs/common';
import { APP_GUARD, NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import fastify, { type FastifyInstance } from 'fastify';
import { contextOf } from '../src/common/context/context-of';
import type { Principal } from '../src/common/context/principal';
import { RequestOutcomes } from '../src/common/http/request-outcomes';
import type { RouteTemplates } from '../src/common/http/route-templates';
import { createServiceMetrics } from '../src/metrics/metrics-registry';
import { RequestRecorder } from '../src/request-log/request-recorder';

export const FLOOR_KINDS = ['node-http', 'fastify', 'nest', 'nest-pipeline', 'nest-watched'] as const;
export type FloorKind = (typeof FLOOR_KINDS)[number];

const ME = { site: { id: 1, name: 'Bench site' }, brand: { id: 1, name: 'Bench', slug: 'bench' } };

type Request = { headers: Record<string, string | undefined>; seen?: number };
const requestOf = (execution: ExecutionContext) => execution.switchToHttp().getRequest<Request>();

// Four guards, as the service has (authentication, rate limit, brand context, permission), each
// async and each touching the request, so that none is cheaper than a real one for Nest to run.
const guardsOf = (watched: boolean) =>
  [0, 1, 2, 3].map((n) => {
    @Injectable()
    class Guard implements CanActivate {
      async canActivate(execution: ExecutionContext): Promise<boolean> {
        const request = requestOf(execution);
        request.seen = n;
        if (watched && n === 0) contextOf(request as never).principal = KEY;
        return request.headers.authorization !== undefined;
      }
    }
    return { provide: APP_GUARD, useClass: Guard };
  });

const KEY: Principal = {
  kind: 'integration_key',
  id: 1,
  isSuperadmin: false,
  boundBrandId: 1,
  defaultBrandId: () => 1,
  permissionsIn: () => new Set(),
};

/** The service's watchers on a Fastify instance, as setupApp and their constructors install them. */
function watchRequests(app: FastifyInstance): void {
  // Only failures of Express look routes up, and a success touches neither the key checks nor the repository.
  const outcomes = new RequestOutcomes(undefined as unknown as RouteTemplates);
  new RequestRecorder(outcomes, undefined as never, undefined as never, { get: () => 1000 } as never);
  const metrics = createServiceMetrics({
    outboxBacklog: () => Promise.resolve({ pending: 0, failed: 0, oldestPendingAgeSeconds: 0 }),
    webhookBacklog: () => Promise.resolve({ pending: 0, failed: 0, oldestPendingAgeSeconds: 0 }),
    eventsHorizonLag: () => Promise.resolve(0),
    readFailed: () => undefined,
  });
  outcomes.listen((o) => metrics.requests.observe(o.method, o.route, o.status, o.durationMs / 1000));
  app.addHook('onResponse', (request, reply, done) => {
    outcomes.answered(request, request.routeOptions.url ?? null, reply.statusCode, reply.elapsedTime);
    done();
  });
}

const Seen = createParamDecorator((_: unknown, execution: ExecutionContext) => requestOf(execution).seen);

@Controller('production-api')
class BareController {
  @Get('me')
  me() {
    return ME;
  }
}

@Controller('production-api')
class PipelineController {
  @Get('me')
  me(@Seen() _seen: number) {
    return ME;
  }
}

@Module({ controllers: [BareController] })
class BareModule {}

@Module({ controllers: [PipelineController], providers: guardsOf(false) })
class PipelineModule {}

@Module({ controllers: [PipelineController], providers: guardsOf(true) })
class WatchedModule {}

async function listen(kind: FloorKind, port: number): Promise<void> {
  if (kind === 'node-http') {
    const body = JSON.stringify(ME);
    const server = createServer((request, response) => {
      if (request.headers.authorization === undefined) return void response.writeHead(401).end();
      response.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
      response.end(body);
    });
    return new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
  }
  if (kind === 'fastify') {
    const app = fastify();
    app.get('/production-api/me', async (request, reply) => {
      if (request.headers.authorization === undefined) return reply.code(401).send();
      return ME;
    });
    await app.listen({ port, host: '127.0.0.1' });
    return;
  }
  const pipeline = kind === 'nest-pipeline' || kind === 'nest-watched';
  const app = await NestFactory.create<NestFastifyApplication>(
    kind === 'nest-watched' ? WatchedModule : pipeline ? PipelineModule : BareModule,
    new FastifyAdapter(),
    {
      logger: false,
    },
  );
  if (pipeline) {
    app.useGlobalPipes(new ValidationPipe({ transform: true, whitelist: true, forbidUnknownValues: true }));
    app
      .getHttpAdapter()
      .getInstance()
      .addHook('onRequest', (request, reply, done) => {
        reply.header('X-Request-Id', request.id);
        done();
      });
  }
  if (kind === 'nest-watched') watchRequests(app.getHttpAdapter().getInstance());
  await app.listen(port, '127.0.0.1');
}

if (require.main === module) {
  const [kind, port] = [process.argv[2] as FloorKind, Number(process.argv[3])];
  if (!FLOOR_KINDS.includes(kind) || !Number.isInteger(port)) {
    process.stderr.write(`usage: floor-servers.ts ${FLOOR_KINDS.join('|')} PORT\n`);
    process.exit(2);
  }
  void listen(kind, port).then(() => process.stdout.write('listening\n'));
}
