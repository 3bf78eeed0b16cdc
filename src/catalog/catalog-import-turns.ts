import { Injectable } from '@nestjs/common';

/**
 * This instance's imports of one brand, one after another, waiting in memory: a waiter holds no
 * pool connection (blocked on the brand's advisory lock, thirty of them took the pool from every
 * other brand). The lock itself is still taken, for imports on other instances.
 */
@Injectable()
export class CatalogImportTurns {
  private readonly last = new Map<number, Promise<void>>();

  /** Runs `work` once every import of `brandId` that came before it here has finished. */
  async inTurn<T>(brandId: number, work: () => Promise<T>): Promise<T> {
    const before = this.last.get(brandId) ?? Promise.resolve();
    let finish!: () => void;
    const done = new Promise<void>((resolve) => (finish = resolve));
    const mine = before.then(() => done);
    this.last.set(brandId, mine);
    await before;
    try {
      return await work();
    } finally {
      finish();
      if (this.last.get(brandId) === mine) this.last.delete(brandId);
    }
  }
}
