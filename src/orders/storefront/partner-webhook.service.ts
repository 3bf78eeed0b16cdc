import { Injectable, Logger } from '@nestjs/common';
import { CatalogMatcher } from '../../catalog/catalog-matcher';
import type { BrandContext } from '../../common/context/request-context';
import { AppError } from '../../common/errors/app-error';
import type { PartnerOrderDto } from '../dto/partner-order.dto';
import { requestFingerprint } from '../order-identity';
import type { OrderRef, StorefrontOrder } from '../new-order';
import { EarlierOrder, OrderWriter, type StorefrontOutcome } from '../order-writer';
import { KeyChecks } from '../../access-keys/key-checks';
import { RecentOrders } from './recent-orders';
import { actorOf } from '../../common/context/actor';
import { rfc3339DateTime } from '../../common/validation/date-time';

export interface WebhookOutcome {
  status: 200 | 201;
  body: { ok: true; duplicate: boolean; order: OrderRef; bodyMismatch?: true };
}

// A write that finds an unmatched line the matcher then cannot find is retried this many times.
const MAX_ATTEMPTS = 3;

/**
 * orderDate when it is a date-time read as the order list's updatedSince is (RFC 3339, with its
 * offset: one without names no instant); otherwise the moment the webhook arrived (spec §2.4).
 */
export function orderedAt(orderDate: unknown, receivedAt: Date): Date {
  const text = rfc3339DateTime(typeof orderDate === 'string' ? orderDate.trim() : orderDate);
  return text === null ? receivedAt : new Date(text);
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
    private readonly matcher: CatalogMatcher,
    private readonly writer: OrderWriter,
    private readonly recent: RecentOrders,
    private readonly keys: KeyChecks,
  ) {}

  async accept(ctx: BrandContext, body: PartnerOrderDto): Promise<WebhookOutcome> {
    const receivedAt = new Date();
    const partnerOrderId = body.partnerOrderId.trim();
    const fingerprint = requestFingerprint(body);
    const options = { acceptanceMail: Boolean(body.recipient.email) };

    const pending = this.keys.pendingOf(ctx);
    if (pending) {
      if (this.recent.find(ctx.brandId, partnerOrderId)) {
        // A repeat this process has answered: the key is checked on its own, the answer comes from memory.
        await pending.settleAlone();
      } else {
        // The key check rides in the order's statement: one round trip for a new order.
        const order = storefrontOrder(body, { brandId: 0, partnerOrderId, fingerprint, receivedAt });
        const { key, outcome } = await this.writer.acceptStorefrontOrderWithKey(order, pending, options);
        if ((await this.keys.settle(ctx, key)).acted) {
          const answer = await this.conclude(ctx.brandId, body, partnerOrderId, fingerprint, outcome);
          if (answer) return answer;
        }
      }
    }

    const brandId = ctx.brandId;
    const remembered = this.recent.find(brandId, partnerOrderId);
    if (remembered) return this.duplicate(brandId, partnerOrderId, remembered, fingerprint);

    const order = storefrontOrder(body, { brandId, partnerOrderId, fingerprint, receivedAt });
    const actor = actorOf(ctx);
    // The repeat check and the matching are part of the write: one round trip for a new order and for a repeat.
    for (let attempt = 1; ; attempt++) {
      const outcome = await this.writer.acceptStorefrontOrder(order, actor, options);
      const answer = await this.conclude(brandId, body, partnerOrderId, fingerprint, outcome);
      if (answer) return answer;
      // The catalog changed between the write and the matcher's look: try the write again.
      if (attempt >= MAX_ATTEMPTS) {
        throw new Error(`order ${partnerOrderId} of brand ${brandId}: the catalog kept changing under it`);
      }
    }
  }

  /** The answer to a write's outcome, or null when it should be written again. */
  private async conclude(
    brandId: number,
    body: PartnerOrderDto,
    partnerOrderId: string,
    fingerprint: string,
    outcome: StorefrontOutcome,
  ): Promise<WebhookOutcome | null> {
    if (outcome === null) {
      // A concurrent request with the same number committed first.
      const twin = await this.writer.findByPartnerId(brandId, partnerOrderId);
      if (!twin) throw new Error(`order ${partnerOrderId} of brand ${brandId} conflicted but cannot be found`);
      return this.duplicate(brandId, partnerOrderId, twin, fingerprint);
    }
    if (outcome === 'unmatched') {
      const { problems } = await this.matcher.byStorefrontArticle(brandId, body.items);
      if (problems.length === 0) return null;
      // The repeat decides first: a retry of an accepted order gets 200 even if the catalog changed since.
      const earlier = await this.writer.findByPartnerId(brandId, partnerOrderId);
      if (earlier) return this.duplicate(brandId, partnerOrderId, earlier, fingerprint);
      throw AppError.unprocessable(problems[0], problems);
    }
    if ('earlier' in outcome) return this.duplicate(brandId, partnerOrderId, outcome.earlier, fingerprint);
    this.recent.remember(brandId, partnerOrderId, { ...outcome.created, fingerprint });
    return { status: 201, body: { ok: true, duplicate: false, order: outcome.created } };
  }

  private duplicate(
    brandId: number,
    partnerOrderId: string,
    earlier: EarlierOrder,
    fingerprint: string,
  ): WebhookOutcome {
    this.recent.remember(brandId, partnerOrderId, earlier);
    const { fingerprint: first, ...order } = earlier;
    const body: WebhookOutcome['body'] = { ok: true, duplicate: true, order };
    if (first !== null && first !== fingerprint) {
      body.bodyMismatch = true;
      this.logger.warn(
        { brandId, partnerOrderId, orderId: order.id },
        'storefront reused an order number with a different body',
      );
    }
    return { status: 200, body };
  }
}

/** The webhook body as the order the write statement takes. */
function storefrontOrder(
  body: PartnerOrderDto,
  facts: { brandId: number; partnerOrderId: string; fingerprint: string; receivedAt: Date },
): StorefrontOrder {
  return {
    brandId: facts.brandId,
    source: 'storefront',
    partnerOrderId: facts.partnerOrderId,
    status: 'paid',
    paymentStatus: 'paid',
    orderedAt: orderedAt(body.orderDate, facts.receivedAt),
    recipient: body.recipient,
    delivery: body.delivery,
    carrierOrderUuid: body.carrierOrderUuid,
    carrierTrackingNumber: body.carrierTrackingNumber,
    waybillUrl: body.waybillUrl,
    promoCode: body.promoCode,
    comment: body.comment,
    requestFingerprint: facts.fingerprint,
    lines: body.items.map((item) => ({
      storefrontArticle: item.article,
      size: item.size,
      quantity: item.quantity,
      priceKopeks: item.priceKopeks,
    })),
  };
}
