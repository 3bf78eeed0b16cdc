import { DynamicModule, Injectable, Logger, Module, OnModuleInit } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { InjectDataSource, TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { Environment } from '../config/environment';
import { dataSourceOptions, pgClientConfig } from './data-source-options';
import { PG_CONNECTION } from './pg-connection';
import { runMigrationsExclusively } from './migration-runner';
import { DatabaseNotifications } from './notifications';
import { PreparedStatements } from './prepared';
import { Transactions } from './transactions';

/** Applies pending migrations before the service listens, unless MIGRATIONS_RUN=false. */
@Injectable()
class MigrationsOnStart implements OnModuleInit {
  private readonly logger = new Logger('Migrations');

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly config: ConfigService<Environment, true>,
  ) {}

  async onModuleInit(): Promise<void> {
    if (!this.config.get('MIGRATIONS_RUN', { infer: true })) return;
    const applied = await runMigrationsExclusively(this.dataSource);
    if (applied.length > 0) this.logger.log(`applied ${applied.join(', ')}`);
  }
}

@Module({})
export class DatabaseModule {
  static forRoot(databaseUrl: string): DynamicModule {
    return {
      module: DatabaseModule,
      // The database, its prepared-statement runner, transactions and notifications serve every module.
      global: true,
      imports: [
        TypeOrmModule.forRootAsync({
          inject: [ConfigService],
          useFactory: (config: ConfigService<Environment, true>) => ({
            ...dataSourceOptions(databaseUrl, config.get('DATABASE_POOL_SIZE', { infer: true })),
            autoLoadEntities: true,
            retryAttempts: 3,
            retryDelay: 1000,
          }),
        }),
      ],
      providers: [
        // The connections the service opens beside TypeORM's pool (pipelined, LISTEN) use these settings.
        { provide: PG_CONNECTION, useValue: pgClientConfig(databaseUrl) },
        MigrationsOnStart,
        PreparedStatements,
        Transactions,
        DatabaseNotifications,
      ],
      exports: [PreparedStatements, Transactions, DatabaseNotifications],
    };
  }
}
