// The data source the TypeORM CLI uses (npm run migration:generate|run|revert).
// The service itself builds its connection in src/database; both share dataSourceOptions.
import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from './src/database/data-source-options';

const url = process.env.DATABASE_URL;
if (!url) {
  throw new Error('DATABASE_URL must be set for the TypeORM CLI, e.g. postgres://postgres@127.0.0.1:5432/commerce_dev');
}

export default new DataSource({ ...dataSourceOptions(url), entities: [`${__dirname}/src/**/*.entity.ts`] });
