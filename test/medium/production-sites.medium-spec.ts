import { IdentityModule } from '../../src/identity/identity.module';
import { ProductionSitesModule } from '../../src/production-sites/production-sites.module';
import { ProductionSitesService } from '../../src/production-sites/production-sites.service';
import { openMedium, type MediumSuite } from '../support/medium';
import { mediumBrand, superadminContext } from '../support/medium-fixtures';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** A short cache, so the bound is seen in seconds; the default's own bound (30 s) is the config's rule. */
const CACHE_SECONDS = 1;
/** Polling, a round trip and a loaded machine's timers on top of the cache's bound. */
const SLACK_MS = 1_500;

/** Polls `verify` until it answers as `works` says; how long that took after `since`. */
async function msUntil(sites: ProductionSitesService, key: string, works: boolean, since: number): Promise<number> {
  while (Date.now() - since < CACHE_SECONDS * 1000 + SLACK_MS + 2_000) {
    if (((await sites.verify(key)) !== null) === works) return Date.now() - since;
    await sleep(50);
  }
  throw new Error(`the key ${works ? 'still fails' : 'still works'} after the cache bound`);
}
const msUntilRefused = (sites: ProductionSitesService, key: string, since: number) => msUntil(sites, key, false, since);

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
    for (const ms of took) expect(ms).toBeLessThanOrEqual(CACHE_SECONDS * 1000 + SLACK_MS);
    const entries = await first.dataSource.query(
      `SELECT details FROM security_journal WHERE type = 'site_key_revoked' AND details->>'keyId' = $1`,
      [String(id)],
    );
    expect(entries).toHaveLength(1);
    expect(entries[0].details.name).toBe('Revoked workshop');
  });

  it('switching a site off stops its keys in every instance within the bound; switching it on restores them', async () => {
    const brand = await mediumBrand(first);
    const ctx = await superadminContext(first, brand);
    const sites = [first.get(ProductionSitesService), second.get(ProductionSitesService)];
    const site = await sites[0].create(ctx, { name: 'Seasonal' });
    const { key } = await sites[0].issueKey(ctx, site.id);
    for (const instance of sites) expect(await instance.verify(key)).not.toBeNull();
    const offAt = Date.now();
    expect(await sites[0].update(ctx, site.id, { active: false })).toMatchObject({ id: site.id, active: false });
    const off = await Promise.all(sites.map((instance) => msUntil(instance, key, false, offAt)));
    for (const ms of off) expect(ms).toBeLessThanOrEqual(CACHE_SECONDS * 1000 + SLACK_MS);
    const onAt = Date.now();
    expect(await sites[0].update(ctx, site.id, { active: true })).toMatchObject({ id: site.id, active: true });
    const on = await Promise.all(sites.map((instance) => msUntil(instance, key, true, onAt)));
    for (const ms of on) expect(ms).toBeLessThanOrEqual(CACHE_SECONDS * 1000 + SLACK_MS);
    const entries = await first.dataSource.query(
      `SELECT details FROM security_journal WHERE type = 'production_site_updated' AND details->>'siteId' = $1
        ORDER BY id`,
      [String(site.id)],
    );
    expect(entries.map((e: { details: { active: boolean } }) => e.details.active)).toEqual([false, true]);
  });
});
