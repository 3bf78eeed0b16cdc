import { BoundedMap } from '../common/runtime/bounded-map';
const MAX_ENTRIES = 10_000;

/**
 * Remembers site-key answers (known or not) for a short time, per instance. The time is the
 * bound on how long a revoked key or a switched-off site may keep working (at most 30 s).
 */
export class SiteKeyCache<T> {
  private readonly entries = new BoundedMap<string, { value: T | null; until: number }>(MAX_ENTRIES);

  constructor(private readonly ttlMs: number) {}

  get(fingerprint: string): { value: T | null } | undefined {
    const entry = this.entries.get(fingerprint);
    if (!entry) return undefined;
    if (entry.until <= Date.now()) {
      this.entries.delete(fingerprint);
      return undefined;
    }
    return { value: entry.value };
  }

  set(fingerprint: string, value: T | null): void {
    if (this.ttlMs <= 0) return;
    this.entries.set(fingerprint, { value, until: Date.now() + this.ttlMs });
  }
}
