import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { changedRows } from '../database/returning';
import type { Tx } from '../database/transactions';

export interface EndpointRow {
  id: number;
  brand_id: number;
  url: string;
  event_types: string[];
  description: string | null;
  enabled: boolean;
  secret_sealed: Buffer;
  previous_secret_sealed: Buffer | null;
  previous_secret_expires_at: Date | null;
  failing_since: Date | null;
  created_at: Date;
}

const COLUMNS = `id, brand_id, url, event_types, description, enabled, secret_sealed, previous_secret_sealed,
  previous_secret_expires_at, failing_since, created_at`;

/** The webhook_endpoints table. Secrets are stored sealed (SecretBox), never in the clear. */
@Injectable()
export class WebhookEndpointsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async insert(
    tx: Tx,
    e: { brandId: number; url: string; eventTypes: string[]; description: string | null; secretSealed: Buffer },
  ): Promise<EndpointRow> {
    const rows: EndpointRow[] = await tx.query(
      `INSERT INTO webhook_endpoints (brand_id, url, event_types, description, secret_sealed)
       VALUES ($1, $2, $3, $4, $5) RETURNING ${COLUMNS}`,
      [e.brandId, e.url, e.eventTypes, e.description, e.secretSealed],
    );
    return rows[0];
  }

  ofBrand(brandId: number): Promise<EndpointRow[]> {
    return this.db.query(`SELECT ${COLUMNS} FROM webhook_endpoints WHERE brand_id = $1 ORDER BY id`, [brandId]);
  }

  async byId(endpointId: number, tx?: Tx): Promise<EndpointRow | null> {
    const rows: EndpointRow[] = await (tx ?? this.db).query(`SELECT ${COLUMNS} FROM webhook_endpoints WHERE id = $1`, [
      endpointId,
    ]);
    return rows[0] ?? null;
  }

  async lockById(tx: Tx, endpointId: number): Promise<EndpointRow | null> {
    const rows: EndpointRow[] = await tx.query(`SELECT ${COLUMNS} FROM webhook_endpoints WHERE id = $1 FOR UPDATE`, [
      endpointId,
    ]);
    return rows[0] ?? null;
  }

  /** Re-enabling also forgets the failures that disabled it. */
  async update(
    tx: Tx,
    endpointId: number,
    change: { url: string; eventTypes: string[]; description: string | null; enabled: boolean },
  ): Promise<void> {
    await tx.query(
      `UPDATE webhook_endpoints SET url = $2, event_types = $3, description = $4, enabled = $5,
              disabled_at = CASE WHEN $5 THEN NULL ELSE disabled_at END,
              failing_since = CASE WHEN $5 AND NOT enabled THEN NULL ELSE failing_since END
        WHERE id = $1`,
      [endpointId, change.url, change.eventTypes, change.description, change.enabled],
    );
  }

  async delete(tx: Tx, endpointId: number): Promise<void> {
    await tx.query('DELETE FROM webhook_endpoints WHERE id = $1', [endpointId]);
  }

  /** The new secret signs from now; the current one keeps signing until `previousExpiresAt`. */
  async rotate(tx: Tx, endpointId: number, secretSealed: Buffer, previousExpiresAt: Date): Promise<void> {
    await tx.query(
      `UPDATE webhook_endpoints SET previous_secret_sealed = secret_sealed, previous_secret_expires_at = $3,
              secret_sealed = $2
        WHERE id = $1`,
      [endpointId, secretSealed, previousExpiresAt],
    );
  }

  async recordSuccess(endpointId: number): Promise<void> {
    await this.db.query(
      'UPDATE webhook_endpoints SET failing_since = NULL WHERE id = $1 AND failing_since IS NOT NULL',
      [endpointId],
    );
  }

  /**
   * Notes a failure; disables the endpoint when it has failed without a success for
   * `disableAfterSeconds`. True when this call disabled it (once, whichever instance).
   */
  async recordFailure(tx: Tx, endpointId: number, disableAfterSeconds: number): Promise<boolean> {
    await tx.query('UPDATE webhook_endpoints SET failing_since = now() WHERE id = $1 AND failing_since IS NULL', [
      endpointId,
    ]);
    const disabled = await changedRows<{ id: number }>(
      tx,
      `UPDATE webhook_endpoints SET enabled = false, disabled_at = now()
        WHERE id = $1 AND enabled AND failing_since <= now() - make_interval(secs => $2) RETURNING id`,
      [endpointId, disableAfterSeconds],
    );
    return disabled.length > 0;
  }
}
