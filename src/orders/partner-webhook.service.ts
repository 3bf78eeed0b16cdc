import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { CatalogMatcher } from '../catalog/catalog-matcher';
import type { RequestContext } from '../common/context/request-context';
import { AppError } from '../common/errors/app-error';
import { runPrepared, type Prepared } from '../database/prepared';
import { StockLedger } from '../inventory/stock-ledger';
import { Outbox } from '../notifications/outbox';
import type { PartnerOrderDto } from './dto/partner-order.dto';
import { requestFingerprint } from './order-identity';
import { OrderRef, OrderWriter } from './order-writer';

export interface WebhookOutcome {
  status: 200 | 201;
  body: { ok: true; duplicate: boolean; order: OrderRef; bodyMismatch?: true };
}

const FIND_BY_PARTNER_ID: Prepared = {
  name: 'find_order_by_partner_id',
  text: 'SELECT id, order_number, hash, total_kopeks, request_fingerprint FROM orders WHERE brand_id = $1 AND partner_order_id = $2',
};

const ISO_DATE = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/** orderDate when it is a valid ISO 8601 time; otherwise the moment the webhook arrived (spec §2.4). */
export function orderedAt(orderDate: unknown, receivedAt: Date): Date {
  if (typeof orderDate !== 'string' || !ISO_DATE.test(orderDate.trim())) return receivedAt;
  const parsed = new Date(orderDate.trim());
  return Number.isNaN(parsed.getTime()) ? receivedAt : parsed;
}

/**
 * The storefront order flow (spec §4.1): a ready, paid order is created and its goods deducted
 * from stock in one transaction. The first request with a partnerOrderId creates the order;
 * every later one, however concurrent, gets the first order back with 200.
 */
@Injectable()
export class PartnerWebhookService {
  private readonly logger = new Logger(PartnerWebhookService.name);

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly matcher: CatalogMatcher,
    private readonly writer: OrderWriter,
    private readonly ledger: StockLedger,
    private readonly outbox: Outbox,
  ) {}

  async accept(ctx: RequestContext, body: PartnerOrderDto): Promise<WebhookOutcome> {
    const receivedAt = new Date();
    const brandId = ctx.brandId!;
    const partnerOrderId = body.partnerOrderId.trim();
    const fingerprint = requestFingerprint(body);

    // Both lookups at once; the repeat decides first, so a retry of an accepted order always gets
    // 200 even if the catalog changed since.
    const [earlier, { lines, problems }] = await Promise.all([
      this.findByPartnerId(brandId, partnerOrderId),
      this.matcher.byStorefrontArticle(brandId, body.items),
    ]);
    if (earlier) return this.duplicate(brandId, partnerOrderId, earlier, fingerprint);
    if (problems.length > 0) throw new AppError(422, problems[0], problems);
    const priced = body.items.map((item, i) => ({
      ...lines[i]!,
      quantity: item.quantity,
      priceKopeks: item.priceKopeks ?? lines[i]!.catalogPriceKopeks,
    }));

    const created = await this.db.transaction(async (tx) => {
      const order = await this.writer.insert(tx, {
        brandId,
        source: 'storefront',
        partnerOrderId,
        status: 'paid',
        paymentStatus: 'paid',
        orderedAt: orderedAt(body.orderDate, receivedAt),
        recipient: body.recipient,
        delivery: body.delivery,
        carrierOrderUuid: body.carrierOrderUuid,
        carrierTrackingNumber: body.carrierTrackingNumber,
        waybillUrl: body.waybillUrl,
        promoCode: body.promoCode,
        comment: body.comment,
        requestFingerprint: fingerprint,
        stockDeducted: true,
        lines: priced,
      });
      if (!order) return null;
      const stock = await this.ledger.apply(
        tx,
        brandId,
        priced.map((line) => ({ sizeId: line.sizeId, delta: -line.quantity, reason: 'order' as const, orderId: order.id })),
        { kind: ctx.principal?.kind ?? null, id: ctx.principal?.id ?? null },
      );
      if ([...stock.values()].some((level) => level < 0)) {
        await tx.query('UPDATE orders SET stock_shortage = true WHERE id = $1', [order.id]);
      }
      if (body.recipient.email) {
        await this.outbox.enqueue(tx, [
          { kind: 'mail.order_accepted', payload: { orderId: order.id }, dedupeKey: `order_accepted:${order.id}` },
        ]);
      }
      return order;
    });
    if (created) return { status: 201, body: { ok: true, duplicate: false, order: created } };

    // A concurrent request with the same number committed first.
    const twin = await this.findByPartnerId(brandId, partnerOrderId);
    if (!twin) throw new Error(`order ${partnerOrderId} of brand ${brandId} conflicted but cannot be found`);
    return this.duplicate(brandId, partnerOrderId, twin, fingerprint);
  }

  private duplicate(
    brandId: number,
    partnerOrderId: string,
    earlier: OrderRef & { fingerprint: string | null },
    fingerprint: string,
  ): WebhookOutcome {
    const { fingerprint: first, ...order } = earlier;
    const body: WebhookOutcome['body'] = { ok: true, duplicate: true, order };
    if (first !== null && first !== fingerprint) {
      body.bodyMismatch = true;
      this.logger.warn({ brandId, partnerOrderId, orderId: order.id }, 'storefront reused an order number with a different body');
    }
    return { status: 200, body };
  }

  private async findByPartnerId(brandId: number, partnerOrderId: string): Promise<(OrderRef & { fingerprint: string | null }) | null> {
    const rows = await runPrepared<{
      id: number;
      order_number: string;
      hash: string;
      total_kopeks: string;
      request_fingerprint: string | null;
    }>(this.db, FIND_BY_PARTNER_ID, [brandId, partnerOrderId]);
    const row = rows[0];
    return row
      ? {
          id: row.id,
          orderNumber: row.order_number,
          hash: row.hash,
          totalKopeks: Number(row.total_kopeks),
          fingerprint: row.request_fingerprint,
        }
      : null;
  }
}
