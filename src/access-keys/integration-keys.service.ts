import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { timingSafeEqual } from 'node:crypto';
import { DataSource } from 'typeorm';
import { SETTINGS_MANAGE, type BrandPermission } from '../common/context/permissions';
import type { BrandContext } from '../common/context/request-context';
import { AppError } from '../common/errors/app-error';
import { ErrorText } from '../common/errors/error-texts';
import { PreparedStatements } from '../database/prepared';
import { changedRows } from '../database/returning';
import { BrandOwnership } from '../security-journal/brand-ownership';
import { SecurityJournal } from '../security-journal/security-journal.service';
import type { IssueIntegrationKeyDto } from './dto/issue-integration-key.dto';
import { effectivePermissions, KEY_GRANTABLE_PERMISSIONS } from './integration-key-grants';
import { IntegrationKeyEntity } from './integration-key.entity';
import { fingerprintOf, generateIntegrationKey, hintOf, isWellFormedIntegrationKey } from './integration-key-format';
import { IntegrationKeyPrincipal } from './integration-key.principal';
import { VERIFY_KEY, type VerifiedKeyRow } from './verify-key.query';

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
    @InjectDataSource() private readonly db: DataSource,
    private readonly statements: PreparedStatements,
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
    const id = await this.db.transaction(async (tx) => {
      const inserted = await tx.getRepository(IntegrationKeyEntity).insert({
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
      const keyId = inserted.identifiers[0].id as number;
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
    const rows = await this.selectViews('k.brand_id = $1 ORDER BY k.id DESC', [ctx.brandId]);
    return rows;
  }

  async revoke(ctx: BrandContext, keyId: number): Promise<IntegrationKeyView> {
    const found = await this.db
      .getRepository(IntegrationKeyEntity)
      .findOne({ where: { id: keyId }, select: { id: true, brandId: true } });
    const key = await this.ownership.assertOwned(ctx, found, { resource: 'integration_key', id: keyId });
    await this.db.transaction(async (tx) => {
      const revoked = await changedRows<{ name: string }>(
        tx,
        'UPDATE integration_keys SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL RETURNING name',
        [key.id],
      );
      // A repeated revoke changes nothing and records nothing.
      if (revoked.length > 0) {
        await this.journal.recordWith(tx, ctx, {
          type: 'integration_key_revoked',
          brandId: key.brandId,
          details: { keyId: key.id, name: revoked[0].name },
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
    const rows = await this.statements.run<VerifiedKeyRow>(VERIFY_KEY, [fingerprint, SETTINGS_MANAGE]);
    const row = rows[0];
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
    this.db
      .query(
        `UPDATE integration_keys SET last_used_at = now()
          WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < now() - make_interval(secs => $2))`,
        [row.id, LAST_USED_RESOLUTION_MS / 1000],
      )
      .catch((error: Error) => this.logger.warn(`could not record lastUsedAt of key ${row.id}: ${error.message}`));
  }

  private async view(id: number): Promise<IntegrationKeyView> {
    return (await this.selectViews('k.id = $1', [id]))[0];
  }

  private async selectViews(where: string, params: unknown[]): Promise<IntegrationKeyView[]> {
    const rows: Array<{
      id: number;
      name: string;
      key_hint: string;
      permissions: BrandPermission[];
      full_access: boolean;
      expires_at: Date | null;
      revoked_at: Date | null;
      created_at: Date;
      created_by: number;
      author_email: string;
      last_used_at: Date | null;
      expired: boolean;
    }> = await this.db.query(
      `SELECT k.id, k.name, k.key_hint, k.permissions, k.full_access, k.expires_at, k.revoked_at, k.created_at,
              k.created_by, u.email AS author_email, k.last_used_at,
              (k.expires_at IS NOT NULL AND k.expires_at <= now()) AS expired
         FROM integration_keys k JOIN users u ON u.id = k.created_by
        WHERE ${where}`,
      params,
    );
    return rows.map((r) => ({
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
    }));
  }
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
