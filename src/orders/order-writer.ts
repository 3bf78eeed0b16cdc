import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { storefrontLineArrays } from '../catalog/catalog-matcher';
import type { LedgerActor } from '../stock-ledger/stock-ledger';
import type { NewOrder, OrderRef, StorefrontOrder } from './new-order';
import { PreparedStatements } from '../database/prepared';
import { ListenerHints } from './listener-hints';
import { DomainEvents } from '../domain-events/domain-events';
import type { KeyCheckOutcome } from '../access-keys/verify-key.query';
import type { PendingKeyCheck } from '../access-keys/statement-key/pending-key-check';
import { SETTINGS_MANAGE } from '../common/context/permissions';
import {
  ACCEPT_STOREFRONT_ORDER_PARAMS,
  ACCEPT_STOREFRONT_ORDER_WITH_KEY_PARAMS,
  FIND_BY_PARTNER_ID,
  INSERT_ORDER,
  INSERT_ORDER_PARAMS,
  lineArrays,
  orderValues,
  storefrontStatements,
  type StorefrontPair,
} from './order-statements';

/** Writes an order and its lines (and, for a paid order, its stock) in one statement. */
@Injectable()
export class OrderWriter {
  private readonly hints = new ListenerHints();
  private storefront: ReturnType<typeof storefrontStatements> | null = null;

  constructor(
    private readonly statements: PreparedStatements,
    private readonly events: DomainEvents,
  ) {}

  /** Built on first use: every subscriber to the events is in by then (DomainEvents). */
  private get storefrontStatements() {
    return (this.storefront ??= storefrontStatements(this.events.sql));
  }

  /**
   * Returns null when the brand already has an order with this partnerOrderId: the unique
   * constraint decides, so concurrent twins cannot both be written.
   */
  async insert(tx: EntityManager, order: NewOrder): Promise<OrderRef | null> {
    const money = totals(order);
    const inserted = await this.statements.runIn<InsertedRow>(
      tx,
      INSERT_ORDER,
      INSERT_ORDER_PARAMS.values({
        ...orderValues(order),
        itemsTotalKopeks: money.items,
        totalKopeks: money.total,
        ...lineArrays(order),
      }),
    );
    const row = inserted[0];
    return row ? { id: row.id, orderNumber: row.order_number, hash: row.hash, totalKopeks: money.total } : null;
  }

  /**
   * A storefront order matched, priced and written with its stock, ledger rows and (when asked
   * for) acceptance mail, all or nothing; or the order the brand already has with this
   * partnerOrderId; or `unmatched` when a line matches no size of the brand (nothing written).
   * Null when a twin committed while this one was being written (read it with a new snapshot).
   */
  async acceptStorefrontOrder(
    order: StorefrontOrder,
    actor: LedgerActor,
    options: { acceptanceMail: boolean },
  ): Promise<StorefrontOutcome> {
    const rows = await this.runStorefront(
      `brand:${order.brandId}`,
      this.storefrontStatements.plain,
      ACCEPT_STOREFRONT_ORDER_PARAMS.values({
        ...storefrontValues(order, options),
        actorKind: actor.kind,
        actorId: actor.id,
      }),
    );
    return outcomeOf(rows);
  }

  /**
   * The same, with the integration key check in the statement (PendingKeyCheck): the brand and
   * the ledger's actor are the key's (order.brandId is not used). Nothing is matched or written
   * unless the key passes; `key` is what the check read, for KeyChecks.settle.
   */
  async acceptStorefrontOrderWithKey(
    order: StorefrontOrder,
    key: PendingKeyCheck,
    options: { acceptanceMail: boolean },
  ): Promise<{ key: KeyCheckOutcome; outcome: StorefrontOutcome }> {
    const rows = await this.runStorefront(
      `key:${key.fingerprint.toString('base64')}`,
      this.storefrontStatements.withKey,
      ACCEPT_STOREFRONT_ORDER_WITH_KEY_PARAMS.values({
        ...storefrontValues(order, options),
        actorKind: 'integration_key',
        keyFingerprint: key.fingerprint,
        keyPermission: key.permission,
        settingsManage: SETTINGS_MANAGE,
      }),
    );
    const checked = rows[0]?.key_check;
    if (!checked) throw new Error('the storefront statement answered without its key check');
    return { key: checked, outcome: outcomeOf(rows) };
  }

  /**
   * Runs the storefront statement without the subscribers' parts (the events are recorded all
   * the same) unless `hint`'s brand was last seen listening, and with them when that one answers
   * `listens` (it wrote nothing). The statement commits as it returns, so the events'
   * subscribers hear of it then.
   */
  private async runStorefront(
    hint: string,
    { unheard, full }: StorefrontPair,
    params: unknown[],
  ): Promise<OutcomeRow[]> {
    if (!this.hints.listens(hint)) {
      const rows = await this.statements.write<OutcomeRow>(unheard, params);
      if (!rows.some((row) => row.outcome === 'listens')) {
        // No subscriber wrote anything, but a new order's events are there for the events API's readers.
        if (rows.some((row) => row.outcome === 'created')) this.events.committed(0);
        return rows;
      }
    }
    const rows = await this.statements.write<OutcomeRow>(full, params);
    const created = rows.find((row) => row.outcome === 'created');
    // A new order's events found a subscriber or none; otherwise the brand was last seen listening.
    this.hints.saw(hint, created ? created.written > 0 : true);
    if (created) this.events.committed(created.written);
    return rows;
  }

  /** The brand's order with this partnerOrderId, read with a new snapshot. */
  async findByPartnerId(brandId: number, partnerOrderId: string): Promise<EarlierOrder | null> {
    const row = (await this.statements.read<EarlierRow>(FIND_BY_PARTNER_ID, [brandId, partnerOrderId]))[0];
    return row ? earlierOrderOf(row) : null;
  }
}

export type StorefrontOutcome = { created: OrderRef } | { earlier: EarlierOrder } | 'unmatched' | null;

type OutcomeRow = EarlierRow & {
  outcome: 'created' | 'earlier' | 'unmatched' | 'listens' | null;
  written: number;
  key_check?: KeyCheckOutcome;
};

function storefrontValues(order: StorefrontOrder, options: { acceptanceMail: boolean }) {
  const lines = storefrontLineArrays(
    order.lines.map((l) => ({
      article: l.storefrontArticle,
      size: l.size,
      quantity: l.quantity,
      priceKopeks: l.priceKopeks,
    })),
  );
  return {
    ...orderValues(order),
    storefrontArticles: lines.articles,
    sizeKeys: lines.sizeKeys,
    quantities: lines.quantities,
    givenPrices: lines.prices,
    acceptanceMail: options.acceptanceMail,
  };
}

function outcomeOf(rows: OutcomeRow[]): StorefrontOutcome {
  const row = rows[0];
  if (!row?.outcome) return null;
  if (row.outcome === 'unmatched') return 'unmatched';
  return row.outcome === 'earlier' ? { earlier: earlierOrderOf(row) } : { created: refOf(row) };
}

/** An order found by its partnerOrderId, with the fingerprint of the request that created it. */
export interface EarlierOrder extends OrderRef {
  fingerprint: string | null;
}

interface InsertedRow {
  id: number;
  order_number: string;
  hash: string;
}

interface EarlierRow extends InsertedRow {
  total_kopeks: string;
  request_fingerprint: string | null;
}

function refOf(row: EarlierRow): OrderRef {
  return { id: row.id, orderNumber: row.order_number, hash: row.hash, totalKopeks: Number(row.total_kopeks) };
}

function earlierOrderOf(row: EarlierRow): EarlierOrder {
  return { ...refOf(row), fingerprint: row.request_fingerprint };
}

function totals(order: NewOrder) {
  const items = order.lines.reduce((sum, line) => sum + line.priceKopeks * line.quantity, 0);
  const delivery = order.delivery?.deliveryCostKopeks ?? 0;
  return { items, delivery, total: items + delivery };
}
