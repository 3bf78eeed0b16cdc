import { Injectable, Logger } from '@nestjs/common';
import { timingSafeEqual } from 'node:crypto';
import { SETTINGS_MANAGE, type BrandPermission } from '../common/context/permissions';
import type { BrandContext } from '../common/context/request-context';
import { AppError } from '../common/errors/app-error';
import { ErrorText } from '../common/errors/error-texts';
import { Transactions } from '../database/transactions';
import { BrandOwnership } from '../security-journal/brand-ownership';
import { SecurityJournal } from '../security-journal/security-journal.service';
import type { IssueIntegrationKeyDto } from './dto/issue-integration-key.dto';
import { effectivePermissions, KEY_GRANTABLE_PERMISSIONS } from './integration-key-grants';
import { IntegrationKeysRepository, type IntegrationKeyRow } from './integration-keys.repository';
import { fingerprintOf, generateIntegrationKey, hintOf, isWellFormedIntegrationKey } from './integration-key-format';
import { IntegrationKeyPrincipal } from './integration-key.principal';
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
  revokedAt: string | null;
}

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
      });
      await this.journal.recordWith(tx, ctx, {
        type: 'integration_key_issued',
        brandId,
        details: { keyId, name: input.name.trim(), permissions, fullAccess: input.fullAccess === true, expiresAt },
      });
      return keyId;
    });
    return { ...(await this.view(id)), key };
  }

  async list(ctx: BrandContext): Promise<IntegrationKeyView[]> {
    return (await this.keys.ofBrand(ctx.brandId)).map(toView);
  }

  async revoke(ctx: BrandContext, keyId: number): Promise<IntegrationKeyView> {
    const found = await this.keys.owner(keyId);
    const key = await this.ownership.assertOwned(ctx, found, { resource: 'integration_key', id: keyId });
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

  /**
   * The key's principal, or null. Format and checksum are checked first, without I/O; every
   * well-formed key then costs one indexed lookup, found or not. Revocation, expiry and the
   * author rule are read from the database on every request: no cache.
   */
  async verify(key: string): Promise<IntegrationKeyPrincipal | null> {
    if (!isWellFormedIntegrationKey(key)) return null;
    const fingerprint = fingerprintOf(key);
    const row = await this.keys.usableByFingerprint(fingerprint, SETTINGS_MANAGE);
    if (!row || !timingSafeEqual(row.fingerprint, fingerprint)) return null;
    this.touch(row);
    return new IntegrationKeyPrincipal(
      row.id,
      row.name,
      row.brand_id,
      effectivePermissions(row.full_access, row.permissions),
    );
  }

  private touch(row: VerifiedKeyRow): void {
    if (row.last_used_at && Date.now() - row.last_used_at.getTime() < LAST_USED_RESOLUTION_MS) return;
    this.keys
      .touch(row.id, LAST_USED_RESOLUTION_MS / 1000)
      .catch((error: Error) => this.logger.warn(`could not record lastUsedAt of key ${row.id}: ${error.message}`));
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
    revokedAt: r.revoked_at?.toISOString() ?? null,
  };
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
