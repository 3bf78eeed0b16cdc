// First: with traces asked for, the instrumentations must be in place before http, pg and the frameworks load.
import { stopTracing } from './tracing/start-tracing';
import 'reflect-metadata';
import type { Server } from 'node:http';
import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AppModule } from './app.module';
import { installLeanAsyncResourceBind } from './common/runtime/async-resource-bind';
import { environmentOrExit } from './config/environment';
import { redactDatabaseUrl } from './database/database-url';
import { startEmbeddedPostgres, type EmbeddedDatabase } from './database/embedded-postgres';
import { APP_OPTIONS, createHttpAdapter, setupApp } from './setup-app';

async function main(): Promise<void> {
  const env = environmentOrExit();
  // Process-wide: the process that serves requests installs it (PERF-14), not each app a suite builds.
  installLeanAsyncResourceBind();

  const logger = new Logger('Main');
  let embedded: EmbeddedDatabase | null = null;
  if (!env.DATABASE_URL) {
    embedded = await startEmbeddedPostgres({ dataDir: env.DATA_DIR, log: (m) => logger.log(m) });
  }
  const databaseUrl = env.DATABASE_URL ?? embedded!.url;

  const app = await NestFactory.create(
    AppModule.register({ databaseUrl }),
    createHttpAdapter({ platform: env.HTTP_ADAPTER, trustProxy: env.TRUST_PROXY }),
    APP_OPTIONS,
  );
  setupApp(app);
  await app.listen(env.PORT, env.HOST);
  logger.log(
    `listening on ${env.HOST}:${env.PORT} (${env.HTTP_ADAPTER}), database ${embedded ? 'embedded' : redactDatabaseUrl(databaseUrl)}`,
  );

  // embedded-postgres stops its server and exits on these signals by itself, racing the app's
  // own close; take them over so connections close first and the process exits 0.
  if (embedded) {
    process.removeAllListeners('SIGTERM');
    process.removeAllListeners('SIGINT');
  }
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    logger.log(`${signal} received: closing`);
    // A keep-alive connection busy when the server closes would stay open after its answer until
    // the client or the keep-alive timeout (72 s on Fastify) ends it, holding up the close and the
    // request log's last flush past an orchestrator's patience (SIGKILL): each is closed once idle.
    const server = app.getHttpServer() as Server;
    const reaper = setInterval(() => server.closeIdleConnections(), 100);
    reaper.unref();
    await app.close();
    clearInterval(reaper);
    // The embedded server stops after the app has closed its connections.
    await embedded?.stop();
    await stopTracing();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((error: unknown) => {
  process.stderr.write(`failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
