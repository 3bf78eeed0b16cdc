import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';

/** A transaction's handle, passed to the repositories whose statements must commit together. */
export type Tx = EntityManager;

/**
 * Where services open transactions: they hold no DataSource, so every statement they run is a
 * repository's. The handle is passed on to each repository taking part.
 */
@Injectable()
export class Transactions {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  run<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }
}
