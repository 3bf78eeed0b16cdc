import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { Tx } from '../database/transactions';

/** The login_failures table: one row a failed (or still pending) login attempt. */
@Injectable()
export class LoginFailuresRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Serializes the attempts on one e-mail until the transaction ends, across every instance. */
  async lockEmail(tx: Tx, email: string): Promise<void> {
    await tx.query(`SELECT pg_advisory_xact_lock(hashtext('login:' || $1))`, [email]);
  }

  async deleteOlderThan(tx: Tx, email: string, windowSeconds: number): Promise<void> {
    await tx.query(
      `DELETE FROM login_failures WHERE email = $1 AND attempted_at <= now() - make_interval(secs => $2)`,
      [email, windowSeconds],
    );
  }

  /**
   * Seconds until the e-mail's `limit`-th newest failure leaves the window, or null when it has
   * fewer than `limit` failures in it.
   */
  async secondsUntilBelowLimit(tx: Tx, email: string, windowSeconds: number, limit: number): Promise<number | null> {
    const rows: Array<{ retry_after: string }> = await tx.query(
      `SELECT ceil(extract(epoch FROM attempted_at + make_interval(secs => $2) - now()))::int AS retry_after
         FROM login_failures WHERE email = $1
        ORDER BY attempted_at DESC OFFSET $3 LIMIT 1`,
      [email, windowSeconds, limit - 1],
    );
    return rows.length > 0 ? Number(rows[0].retry_after) : null;
  }

  async insert(tx: Tx, email: string): Promise<string> {
    const rows: Array<{ id: string }> = await tx.query('INSERT INTO login_failures (email) VALUES ($1) RETURNING id', [
      email,
    ]);
    return rows[0].id;
  }

  async deleteOne(id: string): Promise<void> {
    await this.db.query('DELETE FROM login_failures WHERE id = $1', [id]);
  }

  async deleteAllOf(email: string): Promise<void> {
    await this.db.query('DELETE FROM login_failures WHERE email = $1', [email]);
  }

  async deleteAllOlderThan(windowSeconds: number): Promise<void> {
    await this.db.query(`DELETE FROM login_failures WHERE attempted_at <= now() - make_interval(secs => $1)`, [
      windowSeconds,
    ]);
  }
}
