import { IdentityModule } from '../../src/identity/identity.module';
import { ProductionSitesModule } from '../../src/production-sites/production-sites.module';
import { ProductionSitesService } from '../../src/production-sites/production-sites.service';
import { openMedium, type MediumSuite } from '../support/medium';
import { mediumBrand, superadminContext } from '../support/medium-fixtures';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** A short cache, so the bound is seen in seconds; the default's own bound (30 s) is the config's rule. */
const CACHE_SECONDS = 1;

/** Polls `verify` until the key is refused; how long that took after `since`. */
async function msUntilRefused(sites: ProductionSitesService, key: string, since: number): Promise<number> {
  while (Date.now() - since < CACHE_SECONDS * 1000 + 2_000) {
    if ((await sites.verify(key)) === null) return Date.now() - since;
    await sleep(50);
  }
  throw new Error('the key still works after the cache bound');
}

describe('production sites: a change reaches every instance within the site-key cache', () => {
  let first: MediumSuite;
  let second: MediumSuite;

  beforeAll(async () => {
    const env = { SITE_KEY_CACHE_SECONDS: String(CACHE_SECONDS) };
    first = await openMedium([IdentityModule, ProductionSitesModule], { env });
    second = await openMedium([IdentityModule, ProductionSitesModule], { env, db: first.db });
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  it('a revoked key is refused by every instance within the bound; revoking twice journals once', async () => {
    const brand = await mediumBrand(first);
    const ctx = await superadminContext(first, brand);
    const sites = [first.get(ProductionSitesService), second.get(ProductionSitesService)];
    const site = await sites[0].create(ctx, { name: 'Revoked workshop' });
    const { key, id } = await sites[0].issueKey(ctx, site.id);
    for (const instance of sites) expect(await instance.verify(key)).not.toBeNull();
    const revokedAt = Date.now();
    await sites[0].revokeKey(ctx, site.id, id);
    await sites[0].revokeKey(ctx, site.id, id);
    const took = await Promise.all(sites.map((instance) => msUntilRefused(instance, key, revokedAt)));
    for (const ms of took) expect(ms).toBeLessThanOrEqual(CACHE_SECONDS * 1000 + 250);
    const entries = await first.dataSource.query(
      `SELECT details FROM security_journal WHERE type = 'site_key_revoked' AND details->>'keyId' = $1`,
      [String(id)],
    );
    expect(entries).toHaveLength(1);
    expect(entries[0].details.name).toBe('Revoked workshop');
  });
});
