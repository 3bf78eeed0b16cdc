import type { DynamicModule, Type } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { Test, type TestingModule } from '@nestjs/testing';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DataSource } from 'typeorm';
import { CommonModule } from '../../src/common/common.module';
import { validateEnvironment } from '../../src/config/environment';
import { DatabaseModule } from '../../src/database/database.module';
import { LoggingModule } from '../../src/logging.module';
import { createTestDatabase, type TestDatabase } from './test-database';
import { TEST_SESSION_SECRET } from './test-app';

/** A medium suite: some feature modules on a database of their own, without HTTP. */
export interface MediumSuite {
  db: TestDatabase;
  module: TestingModule;
  dataSource: DataSource;
  /** A provider of the modules, as Nest built it (a service with its real repositories). */
  get<T>(type: Type<T>): T;
  close(): Promise<void>;
}

export interface MediumOptions {
  /** Variables over the tests' defaults; the same validation as the service's start reads them. */
  env?: Record<string, string>;
  /** A database to share (several instances of a module on one database); else one of its own. */
  db?: TestDatabase;
}

/**
 * Medium tier (after Immich's test/medium): the given modules with everything they import, the
 * validated configuration and the real database layer on a migrated copy of the run's template,
 * but no HTTP platform, guards or AppModule. Lifecycle hooks run, so workers start and stop as
 * in the service; a suite switches off the ones it does not test through `env`.
 */
export async function openMedium(
  imports: Array<Type | DynamicModule>,
  options: MediumOptions = {},
): Promise<MediumSuite> {
  const db = options.db ?? (await createTestDatabase());
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cil-medium-data-'));
  // A small pool: suites open several instances, three workers at a time, on a server of 100 connections.
  const env = {
    LOG_LEVEL: 'silent',
    SESSION_SECRET: TEST_SESSION_SECRET,
    DATA_DIR: dataDir,
    DATABASE_POOL_SIZE: '4',
    ...options.env,
  };
  const leave = async () => {
    rmSync(dataDir, { recursive: true, force: true });
    if (!options.db) await db.drop();
  };
  let module: TestingModule | undefined;
  try {
    module = await Test.createTestingModule({
      imports: [
        ConfigModule.forRoot({
          isGlobal: true,
          ignoreEnvFile: true,
          skipProcessEnv: true,
          load: [() => ({ ...validateEnvironment({ ...process.env, ...env }) })],
        }),
        LoggingModule,
        CommonModule,
        DatabaseModule.forRoot(db.url),
        ...imports,
      ],
    }).compile();
    await module.init();
  } catch (error) {
    // A half-started module may hold timers and connections: stop what started, then leave nothing.
    await module?.close().catch(() => undefined);
    await leave();
    throw error;
  }
  const opened = module;
  return {
    db,
    module: opened,
    dataSource: opened.get(DataSource),
    get: (type) => opened.get(type, { strict: false }),
    close: async () => {
      try {
        await opened.close();
      } finally {
        await leave();
      }
    },
  };
}
