import { Injectable } from '@nestjs/common';
import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify/sync';
import type { BrandContext } from '../common/context/request-context';
import { AppError } from '../common/errors/app-error';
import { ErrorText } from '../common/errors/error-texts';
import { setTimeout as sleep } from 'node:timers/promises';
import { Transactions, type Tx } from '../database/transactions';
import { IMPORT_COLUMNS, readImportFile } from './catalog-csv';
import { claimedStorefrontArticles, planImport, type ImportCounts } from './catalog-import-plan';
import { CatalogImportRepository, type ExportRow } from './catalog-import.repository';
import { translateCatalogClashes } from './catalog-clashes';
import { CatalogImportTurns } from './catalog-import-turns';
import { guardFormula } from './csv-formula-cells';

export type ImportAnswer = ImportCounts & { dryRun: boolean };

/** Products per page of the export: its memory stays this page's, whatever the catalog's size. */
const EXPORT_PAGE_PRODUCTS = 500;

/** How long an import waits for another instance's import of its brand, trying every so often. */
const LOCK_WAIT_MS = 10_000;
const LOCK_RETRY_MS = 100;

/** The brand's import lock is another's: nothing was done, the transaction rolls back. */
class CatalogBusy extends Error {
  constructor() {
    super('catalog import lock held');
  }
}

/** A dry run's answer, thrown out of its transaction so that everything the run wrote rolls back. */
class DryRunOver extends Error {
  constructor(readonly counts: ImportCounts) {
    super('dry run');
  }
}

/** The catalog's import from and export to CSV (contract §18). */
@Injectable()
export class CatalogImportService {
  constructor(
    private readonly repository: CatalogImportRepository,
    private readonly transactions: Transactions,
    private readonly turns: CatalogImportTurns,
  ) {}

  /**
   * All or nothing, in one transaction: every wrong line is listed in a 422 and nothing changes.
   * A dry run does exactly the same work, its unique keys included, then rolls it back. The file is
   * read before the import waits for its brand's turn, so the wait holds neither a parse nor a connection.
   */
  async import(ctx: BrandContext, bytes: Buffer, dryRun: boolean): Promise<ImportAnswer> {
    const file = await readImportFile(bytes);
    const articles = [...new Set(file.lines.map((line) => line.article!))];
    const claimed = claimedStorefrontArticles(file.lines);
    const work = async (tx: Tx): Promise<ImportCounts> => {
      const current = await this.repository.lockProducts(tx, ctx.brandId, articles);
      const holders = await this.repository.storefrontHolders(tx, ctx.brandId, claimed);
      const problems = new Map(file.problems);
      const plan = planImport(file.lines, current, holders, problems);
      if (problems.size > 0) {
        const details = [...problems.entries()]
          .sort(([a], [b]) => a - b)
          .map(([line, texts]) => ErrorText.importLine(line, texts));
        throw AppError.unprocessable(ErrorText.importHasErrors, details);
      }
      await this.repository.apply(tx, ctx.brandId, plan);
      if (dryRun) throw new DryRunOver(plan.counts);
      return plan.counts;
    };
    try {
      const counts = await this.turns.inTurn(ctx.brandId, () =>
        translateCatalogClashes(() => this.withCatalogLock(ctx.brandId, work)),
      );
      return { ...counts, dryRun };
    } catch (error) {
      if (error instanceof DryRunOver) return { ...error.counts, dryRun };
      throw error;
    }
  }

  /**
   * `work` in a transaction that holds the brand's import lock. Another instance's import holding
   * it is waited for by trying again, the connection given back in between, for a few seconds at
   * most (then 429: the caller tries again later, and nothing was changed).
   */
  private async withCatalogLock<T>(brandId: number, work: (tx: Tx) => Promise<T>): Promise<T> {
    const giveUpAt = Date.now() + LOCK_WAIT_MS;
    for (;;) {
      try {
        return await this.transactions.run(async (tx) => {
          if (!(await this.repository.tryLockBrandCatalog(tx, brandId))) throw new CatalogBusy();
          return work(tx);
        });
      } catch (error) {
        if (!(error instanceof CatalogBusy)) throw error;
        if (Date.now() >= giveUpAt) throw AppError.tooManyRequests(ErrorText.importCatalogBusy, 2);
        await sleep(LOCK_RETRY_MS * (0.5 + Math.random()));
      }
    }
  }

  /** The brand's catalog as CSV, one line per size, in article order, read a page at a time as the client takes it. */
  export(ctx: BrandContext): Readable {
    const repository = this.repository;
    const brandId = ctx.brandId;
    async function* pages(): AsyncGenerator<string> {
      yield stringify([IMPORT_COLUMNS]);
      let after: string | null = null;
      for (;;) {
        const rows: ExportRow[] = await repository.exportPage(brandId, after, EXPORT_PAGE_PRODUCTS);
        if (rows.length === 0) return;
        yield stringify(
          rows.map((row) => [
            guardFormula(row.article),
            guardFormula(row.name),
            guardFormula(row.storefront_article ?? ''),
            row.price_kopeks,
            guardFormula(row.size ?? ''),
            row.size_price_kopeks ?? '',
          ]),
        );
        after = rows[rows.length - 1].article;
      }
    }
    // One page ahead at most (object mode reads 16 ahead by default).
    return Readable.from(pages(), { highWaterMark: 1 });
  }
}
