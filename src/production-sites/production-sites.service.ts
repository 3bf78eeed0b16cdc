import { Injectable, Logger } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { timingSafeEqual } from 'node:crypto';
import type { BrandContext } from '../common/context/request-context';
import { AppError } from '../common/errors/app-error';
import type { Environment } from '../config/environment';
import { Transactions } from '../database/transactions';
import { BrandOwnership } from '../security-journal/brand-ownership';
import { SecurityJournal } from '../security-journal/security-journal.service';
import type { CreateProductionSiteDto } from './dto/create-production-site.dto';
import type { UpdateProductionSiteDto } from './dto/update-production-site.dto';
import type { ProductionSiteEntity } from './production-site.entity';
import { ProductionSitesRepository } from './production-sites.repository';
import { SiteKeyCache } from './site-key-cache';
import { generateSiteKey, isWellFormedSiteKey, siteKeyFingerprint, siteKeyFingerprintHex } from './site-key-format';
import type { SiteKeyEntity } from './site-key.entity';
import { SiteKeyPrincipal } from './site-key.principal';

export interface SiteView {
  id: number;
  name: string;
  active: boolean;
  createdAt: string;
}

export interface SiteKeyView {
  id: number;
  keyHint: string | null;
  siteId: number;
  status: 'active' | 'revoked';
  createdAt: string;
  revokedAt: string | null;
  lastUsedAt: string | null;
}

const toSiteView = (site: ProductionSiteEntity): SiteView => ({
  id: site.id,
  name: site.name,
  active: site.active,
  createdAt: site.createdAt.toISOString(),
});

const toKeyView = (key: SiteKeyEntity): SiteKeyView => ({
  id: key.id,
  keyHint: key.keyHint,
  siteId: key.siteId,
  status: key.revokedAt ? 'revoked' : 'active',
  createdAt: key.createdAt.toISOString(),
  revokedAt: key.revokedAt?.toISOString() ?? null,
  lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
});

// lastUsedAt of a site key is written at most once a minute per key.
const LAST_USED_RESOLUTION_MS = 60_000;

@Injectable()
export class ProductionSitesService {
  private readonly cache: SiteKeyCache<SiteKeyPrincipal>;
  private readonly logger = new Logger(ProductionSitesService.name);
  private readonly touched = new Map<number, number>();

  constructor(
    private readonly sites: ProductionSitesRepository,
    private readonly transactions: Transactions,
    private readonly journal: SecurityJournal,
    private readonly ownership: BrandOwnership,
    config: ConfigService<Environment, true>,
  ) {
    this.cache = new SiteKeyCache(config.get('SITE_KEY_CACHE_SECONDS', { infer: true }) * 1000);
  }

  async create(ctx: BrandContext, input: CreateProductionSiteDto): Promise<SiteView> {
    return toSiteView(await this.sites.insertSite(ctx.brandId, input.name.trim()));
  }

  async list(ctx: BrandContext): Promise<SiteView[]> {
    return (await this.sites.sitesOfBrand(ctx.brandId)).map(toSiteView);
  }

  async update(ctx: BrandContext, siteId: number, change: UpdateProductionSiteDto): Promise<SiteView> {
    const site = await this.ownedSite(ctx, siteId);
    const next = { active: change.active ?? site.active, name: change.name?.trim() ?? site.name };
    await this.transactions.run(async (tx) => {
      await this.sites.updateSite(tx, site.id, next);
      if (next.active !== site.active) {
        await this.journal.recordWith(tx, ctx, {
          type: 'production_site_updated',
          brandId: site.brandId,
          details: { siteId: site.id, name: next.name, active: next.active },
        });
      }
    });
    return toSiteView({ ...site, ...next });
  }

  async issueKey(ctx: BrandContext, siteId: number): Promise<SiteKeyView & { key: string }> {
    const site = await this.ownedSite(ctx, siteId);
    const key = generateSiteKey();
    const saved = await this.transactions.run(async (tx) => {
      const row = await this.sites.insertKey(tx, {
        siteId: site.id,
        fingerprint: siteKeyFingerprint(key),
        keyHint: key.slice(-4),
        createdBy: ctx.principal!.id,
      });
      await this.journal.recordWith(tx, ctx, {
        type: 'site_key_issued',
        brandId: site.brandId,
        details: { keyId: row.id, siteId: site.id, name: site.name },
      });
      return row;
    });
    return { ...toKeyView(saved), key };
  }

  async keysOf(ctx: BrandContext, siteId: number): Promise<SiteKeyView[]> {
    const site = await this.ownedSite(ctx, siteId);
    return (await this.sites.keysOfSite(site.id)).map(toKeyView);
  }

  /** Records a use of the key, at most once a minute per key and instance, off the request's path. */
  touch(keyId: number): void {
    const now = Date.now();
    if (now - (this.touched.get(keyId) ?? 0) < LAST_USED_RESOLUTION_MS) return;
    if (this.touched.size > 10_000) this.touched.clear();
    this.touched.set(keyId, now);
    this.sites
      .touchKey(keyId, LAST_USED_RESOLUTION_MS / 1000)
      .catch((error: Error) => this.logger.warn(`could not record lastUsedAt of site key ${keyId}: ${error.message}`));
  }

  async revokeKey(ctx: BrandContext, siteId: number, keyId: number): Promise<SiteKeyView> {
    const site = await this.ownedSite(ctx, siteId);
    const key = await this.sites.keyOfSite(keyId, site.id);
    if (!key) return this.missingKey(ctx, keyId);
    await this.transactions.run(async (tx) => {
      if (await this.sites.revokeKey(tx, key.id)) {
        await this.journal.recordWith(tx, ctx, {
          type: 'site_key_revoked',
          brandId: site.brandId,
          details: { keyId: key.id, siteId: site.id, name: site.name },
        });
      }
    });
    return toKeyView(await this.sites.keyById(key.id));
  }

  /**
   * The site behind a key, or null when the key is unknown, revoked or its site switched off.
   * Answers are cached for SITE_KEY_CACHE_SECONDS (at most 30), the bound the spec allows.
   */
  async verify(key: string): Promise<SiteKeyPrincipal | null> {
    const remembered = this.recall(key);
    if (remembered !== undefined) return remembered;
    const cacheKey = siteKeyFingerprintHex(key);
    const fingerprint = Buffer.from(cacheKey, 'hex');
    const row = await this.sites.usableKeyByFingerprint(fingerprint);
    const principal =
      row && timingSafeEqual(row.fingerprint, fingerprint)
        ? new SiteKeyPrincipal({
            keyId: row.key_id,
            site: { id: row.site_id, name: row.site_name },
            brand: { id: row.brand_id, name: row.brand_name, slug: row.brand_slug },
          })
        : null;
    this.cache.set(cacheKey, principal);
    return principal;
  }

  /** `verify`'s answer when it needs no query (a malformed key, or one in the cache); else undefined. */
  recall(key: string): SiteKeyPrincipal | null | undefined {
    if (!isWellFormedSiteKey(key)) return null;
    return this.cache.get(siteKeyFingerprintHex(key))?.value;
  }

  private async ownedSite(ctx: BrandContext, siteId: number): Promise<ProductionSiteEntity> {
    const site = await this.sites.siteById(siteId);
    return this.ownership.assertOwned(ctx, site, { resource: 'production_site', id: siteId });
  }

  /** A key id that exists under another brand's site is a cross-brand attempt too. */
  private async missingKey(ctx: BrandContext, keyId: number): Promise<never> {
    const brandId = await this.sites.brandOfKey(keyId);
    await this.ownership.assertOwned(ctx, brandId === null ? null : { brandId }, {
      resource: 'site_key',
      id: keyId,
    });
    // Same brand, another site of it: the key is not under this path.
    throw AppError.notFound();
  }
}
