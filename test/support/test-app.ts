import type { DynamicModule, INestApplication, Type } from '@nestjs/common';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { Test } from '@nestjs/testing';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { AppModule } from '../../src/app.module';
import { parseTrustProxy } from '../../src/config/trust-proxy';
import { APP_OPTIONS, createHttpAdapter, setupApp, type HttpPlatform } from '../../src/setup-app';
import { countBoot } from './boot-count';

export const TEST_SESSION_SECRET = 'test-session-secret-0123456789abcdef0123456789';
export const ADMIN = { email: 'root@example.com', password: 'suite-admin-phrase-1' };

export interface TestApp {
  app: INestApplication;
  http: ReturnType<INestApplication['getHttpServer']>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  databaseUrl: string;
  env?: Record<string, string>;
  /** Extra modules, e.g. a probe controller that exercises the guard chain. */
  imports?: Array<Type | DynamicModule>;
}

/** The whole AppModule, set up exactly as main.ts does, on a real database. */
export async function startTestApp(options: TestAppOptions): Promise<TestApp> {
  countBoot('app');
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cil-test-data-'));
  const moduleRef = await Test.createTestingModule({
    imports: [
      AppModule.register({
        databaseUrl: options.databaseUrl,
        env: {
          LOG_LEVEL: 'silent',
          SESSION_SECRET: TEST_SESSION_SECRET,
          DATA_DIR: dataDir,
          BOOTSTRAP_ADMIN_EMAIL: ADMIN.email,
          BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password,
          ...options.env,
        },
      }),
      ...(options.imports ?? []),
    ],
  }).compile();
  const adapter = createHttpAdapter({
    platform: testPlatform(options),
    trustProxy: parseTrustProxy(options.env?.TRUST_PROXY) ?? 0,
  });
  const app = setupApp(moduleRef.createNestApplication(adapter, APP_OPTIONS));
  await app.init();
  if (adapter instanceof FastifyAdapter) await adapter.getInstance().ready();
  return {
    app,
    http: app.getHttpServer(),
    close: async () => {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The suite's HTTP platform: its own HTTP_ADAPTER, else the run's (`npm run test:express` sets it). */
export function testPlatform(options: Pick<TestAppOptions, 'env'> = {}): HttpPlatform {
  return (options.env?.HTTP_ADAPTER ?? process.env.HTTP_ADAPTER) === 'express' ? 'express' : 'fastify';
}

export interface Session {
  token: string;
  csrfToken: string;
  cookie: string;
  userId: number;
}

export async function login(http: TestApp['http'], email: string, password: string): Promise<Session> {
  const response = await request(http).post('/auth/login').send({ email, password }).expect(200);
  const cookie = ([] as string[]).concat(response.headers['set-cookie'] ?? [])[0]?.split(';')[0] ?? '';
  return { token: response.body.token, csrfToken: response.body.csrfToken, cookie, userId: response.body.user.id };
}

export const bearer = (session: { token: string }) => ({ Authorization: `Bearer ${session.token}` });
