import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { AppError } from '../common/errors/app-error';
import { ErrorText } from '../common/errors/error-texts';
import type { Environment } from '../config/environment';

/** Seconds a refused import is told to wait: an import of a full file takes about one. */
const RETRY_AFTER_SECONDS = 2;

/**
 * Imports running on this instance, all callers' and each caller's, bounded (429 beyond) before a
 * byte of the file is read: each holds up to 5 MiB and a parse, and one caller must not take the
 * instance's share. Counted in memory: the bound is what one instance can afford.
 */
@Injectable()
export class CatalogImportSlots {
  private readonly perInstance: number;
  private readonly perCaller: number;
  private running = 0;
  private readonly byCaller = new Map<string, number>();

  constructor(config: ConfigService<Environment, true>) {
    this.perInstance = config.get('CATALOG_IMPORTS_PER_INSTANCE', { infer: true });
    this.perCaller = config.get('CATALOG_IMPORTS_PER_CALLER', { infer: true });
  }

  /** How many imports hold a slot on this instance now. */
  get inUse(): number {
    return this.running;
  }

  /** Takes a slot for `caller`, or throws 429; the returned function gives it back (once). */
  take(caller: string): () => void {
    const own = this.byCaller.get(caller) ?? 0;
    if (own >= this.perCaller) throw AppError.tooManyRequests(ErrorText.importsBusyForCaller, RETRY_AFTER_SECONDS);
    if (this.running >= this.perInstance) throw AppError.tooManyRequests(ErrorText.importsBusy, RETRY_AFTER_SECONDS);
    this.running++;
    this.byCaller.set(caller, own + 1);
    let given = false;
    return () => {
      if (given) return;
      given = true;
      this.running--;
      const left = this.byCaller.get(caller)! - 1;
      if (left === 0) this.byCaller.delete(caller);
      else this.byCaller.set(caller, left);
    };
  }
}
