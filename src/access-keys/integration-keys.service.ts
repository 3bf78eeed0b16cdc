import { Injectable, Logger } from '@nestjs/common';
import { timingSafeEqual } from 'node:crypto';
import { SETTINGS_MANAGE, type BrandPermission } from '../common/context/permissions';
import type { BrandContext } from '../common/context/request-context';
import { AppError } from '../common/errors/app-error';
import { ErrorText } from '../common/errors/error-texts';
import { Transactions } from '../database/transactions';
import { BrandOwnership } from '../security-journal/brand-ownership';
import { SecurityJournal } from '../security-journal/security-journal.service';
import { canonicalEntry } from './address-allowlist';
import type { IssueIntegrationKeyDto, UpdateIntegrationKeyDto } from './dto/issue-integration-key.dto';
import { effectivePermissions, KEY_GRANTABLE_PERMISSIONS } from './integration-key-grants';
import { IntegrationKeysRepository, type IntegrationKeyRow } from './integration-keys.repository';
import { fingerprintOf, generateIntegrationKey, hintOf, isWellFormedIntegrationKey } from './integration-key-format';
import { IntegrationKeyPrincipal, rateLimitKeyOf } from './integration-key.principal';
import type { VerifiedKeyRow } from './verify-key.query';

export type IntegrationKeyStatus = 'active' | 'expired' | 'revoked';

export interface IntegrationKeyView {
  id: number;
  name: string;
  keyHint: string;
  permissions: BrandPermission[];
  fullAccess: boolean;
  expiresAt: string | null;
  status: IntegrationKeyStatus;
  createdAt: string;
  createdBy: { id: number; email: string };
  lastUsedAt: string | null;
  lastUsedIp: string | null;
  allowedIps: string[] | null;
  rolledFromId: number | null;
  revokedAt: string | null;
}

// A rolled key may keep working at most this long (contract §12).
const MAX_ROLL_GRACE_MS = 7 * 24 * 3_600_000;

// lastUsedAt is written at most once a minute per key, not on every request.
const LAST_USED_RESOLUTION_MS = 60_000;

@Injectable()
export class IntegrationKeysService {
  private readonly logger = new Logger(IntegrationKeysService.name);

  constructor(
    private readonly keys: IntegrationKeysRepository,
    private readonly transactions: Transactions,
    private readonly journal: SecurityJournal,
    private readonly ownership: BrandOwnership,
  ) {}

  async issue(ctx: BrandContext, input: IssueIntegrationKeyDto): Promise<IntegrationKeyView & { key: string }> {
    const brandId = ctx.brandId;
    const author = ctx.principal!;
    const permissions = validateGrant(input);
    const expiresAt = input.expiresAt === undefined ? null : new Date(input.expiresAt);
    if (expiresAt && expiresAt.getTime() <= Date.now()) throw AppError.badRequest([ErrorText.expiryInPast]);

    const key = generateIntegrationKey();
    const id = await this.transactions.run(async (tx) => {
      const keyId = await this.keys.insert(tx, {
        brandId,
        name: input.name.trim(),
        fingerprint: fingerprintOf(key),
        keyHint: hintOf(key),
        permissions,
        fullAccess: input.fullAccess === true,
        expiresAt,
        createdBy: author.id,
        issuedAsSuperadmin: author.isSuperadmin,
        allowedIps: canonicalList(input.allowedIps),
      });
      await this.journal.recordWith(tx, ctx, {
        type: 'integration_key_issued',
        brandId,
        details: {
          keyId,
          name: input.name.trim(),
          permissions,
          fullAccess: input.fullAccess === true,
          expiresAt,
          allowedIps: canonicalList(input.allowedIps),
        },
      });
      return keyId;
    });
    return { ...(await this.view(id)), key };
  }

  async list(ctx: BrandContext): Promise<IntegrationKeyView[]> {
    return (await this.keys.ofBrand(ctx.brandId)).map(toView);
  }

  async revoke(ctx: BrandContext, keyId: number): Promise<IntegrationKeyView> {
    const key = await this.owned(ctx, keyId);
    await this.transactions.run(async (tx) => {
      const name = await this.keys.revoke(tx, key.id);
      // A repeated revoke changes nothing and records nothing.
      if (name !== null) {
        await this.journal.recordWith(tx, ctx, {
          type: 'integration_key_revoked',
          brandId: key.brandId,
          details: { keyId: key.id, name },
        });
      }
    });
    return this.view(key.id);
  }

  async get(ctx: BrandContext, keyId: number): Promise<IntegrationKeyView> {
    return this.view((await this.owned(ctx, keyId)).id);
  }

  /** The name and the allowlist; permissions stay as issued (contract §12). */
  async update(ctx: BrandContext, keyId: number, input: UpdateIntegrationKeyDto): Promise<IntegrationKeyView> {
    await this.owned(ctx, keyId);
    await this.transactions.run(async (tx) => {
      const current = (await this.keys.lockById(tx, keyId))!;
      const change = {
        name: input.name?.trim() ?? current.name,
        allowedIps: input.allowedIps === undefined ? current.allowed_ips : canonicalList(input.allowedIps),
      };
      await this.keys.update(tx, keyId, change);
      await this.journal.recordWith(tx, ctx, {
        type: 'integration_key_updated',
        brandId: current.brand_id,
        details: { keyId, ...change },
      });
    });
    return this.view(keyId);
  }

  /**
   * A new key with the old one's grants and allowlist, shown once; the old key ends at
   * `oldKeyExpiresAt` (default now). A key is rolled once: under its row lock, a second roll of
   * the same key (at the same moment or later) finds it rolled and gets 409, so there is one
   * successor and the old key's end is set once.
   */
  async roll(
    ctx: BrandContext,
    keyId: number,
    oldKeyExpiresAt?: string,
  ): Promise<IntegrationKeyView & { key: string }> {
    await this.owned(ctx, keyId);
    const author = ctx.principal!;
    const endsAt = oldKeyExpiresAt === undefined ? new Date() : new Date(oldKeyExpiresAt);
    const key = generateIntegrationKey();
    const id = await this.transactions.run(async (tx) => {
      const old = (await this.keys.lockById(tx, keyId))!;
      if (old.revoked_at || old.expired || old.rolled_at) {
        throw AppError.conflict(
          ErrorText.keyNotRollable(old.revoked_at ? 'revoked' : old.expired ? 'expired' : 'rolled'),
        );
      }
      if (endsAt.getTime() > Date.now() + MAX_ROLL_GRACE_MS) throw AppError.badRequest([ErrorText.rollGraceTooLong]);
      if (old.expires_at && endsAt > old.expires_at) throw AppError.badRequest([ErrorText.rollGracePastExpiry]);
      const newId = await this.keys.insert(tx, {
        brandId: old.brand_id,
        name: old.name,
        fingerprint: fingerprintOf(key),
        keyHint: hintOf(key),
        permissions: old.permissions,
        fullAccess: old.full_access,
        expiresAt: old.expires_at,
        createdBy: author.id,
        issuedAsSuperadmin: author.isSuperadmin,
        allowedIps: old.allowed_ips,
        rolledFromId: old.id,
      });
      await this.keys.endByRoll(tx, old.id, endsAt < new Date() ? new Date() : endsAt);
      await this.journal.recordWith(tx, ctx, {
        type: 'integration_key_rolled',
        brandId: old.brand_id,
        details: { name: old.name, keyId: old.id, newKeyId: newId, oldKeyExpiresAt: endsAt.toISOString() },
      });
      return newId;
    });
    return { ...(await this.view(id)), key };
  }

  /**
   * The key's principal, or null. Format and checksum are checked first, without I/O; every
   * well-formed key then costs one indexed lookup, found or not. Revocation, expiry and the
   * author rule are read from the database on every request: no cache.
   */
  async verify(key: string, ip: string): Promise<IntegrationKeyPrincipal | null> {
    if (!isWellFormedIntegrationKey(key)) return null;
    const fingerprint = fingerprintOf(key);
    return this.principalOf(await this.keys.usableByFingerprint(fingerprint, SETTINGS_MANAGE), fingerprint, ip);
  }

  /** The principal of a key's row as the key check read it (VERIFY_KEY or KeyCheckSql), or null. */
  principalOf(row: VerifiedKeyRow | null, fingerprint: Buffer, ip: string): IntegrationKeyPrincipal | null {
    if (!row || !timingSafeEqual(row.fingerprint, fingerprint)) return null;
    this.touch(row, ip);
    return new IntegrationKeyPrincipal(
      row.id,
      row.name,
      row.brand_id,
      effectivePermissions(row.full_access, row.permissions),
      row.allowed_ips,
      rateLimitKeyOf(fingerprint),
    );
  }

  private touch(row: VerifiedKeyRow, ip: string): void {
    if (row.last_used_at && Date.now() - row.last_used_at.getTime() < LAST_USED_RESOLUTION_MS) return;
    this.keys
      .touch(row.id, ip, LAST_USED_RESOLUTION_MS / 1000)
      .catch((error: Error) => this.logger.warn(`could not record lastUsedAt of key ${row.id}: ${error.message}`));
  }

  /** The key of the request's brand; another brand's is a journaled 403, none a 404. */
  private async owned(ctx: BrandContext, keyId: number): Promise<{ id: number; brandId: number }> {
    return this.ownership.assertOwned(ctx, await this.keys.owner(keyId), { resource: 'integration_key', id: keyId });
  }

  private async view(id: number): Promise<IntegrationKeyView> {
    return toView((await this.keys.byId(id))!);
  }
}

function toView(r: IntegrationKeyRow): IntegrationKeyView {
  return {
    id: r.id,
    name: r.name,
    keyHint: r.key_hint,
    permissions: r.permissions,
    fullAccess: r.full_access,
    expiresAt: r.expires_at?.toISOString() ?? null,
    status: r.revoked_at ? 'revoked' : r.expired ? 'expired' : 'active',
    createdAt: r.created_at.toISOString(),
    createdBy: { id: r.created_by, email: r.author_email },
    lastUsedAt: r.last_used_at?.toISOString() ?? null,
    lastUsedIp: r.last_used_ip,
    allowedIps: r.allowed_ips,
    rolledFromId: r.rolled_from_id,
    revokedAt: r.revoked_at?.toISOString() ?? null,
  };
}

/** The allowlist as stored: canonical entries, without repeats; null for any address. */
function canonicalList(entries: string[] | null | undefined): string[] | null {
  if (entries === undefined || entries === null) return null;
  return [...new Set(entries.map((entry) => canonicalEntry(entry)!))];
}

/** Exactly one of a non-empty permission list or fullAccess: true; never settings.manage. */
function validateGrant(input: IssueIntegrationKeyDto): BrandPermission[] {
  const listed = input.permissions ?? [];
  const full = input.fullAccess === true;
  if (listed.includes(SETTINGS_MANAGE)) {
    throw AppError.badRequest([ErrorText.settingsNotForKeys]);
  }
  if (full === listed.length > 0) {
    throw AppError.badRequest([ErrorText.permissionsOrFullAccess]);
  }
  return KEY_GRANTABLE_PERMISSIONS.filter((p) => listed.includes(p));
}
