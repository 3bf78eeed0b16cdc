import { Injectable } from '@nestjs/common';
import type { BrandContext, RequestContext } from '../common/context/request-context';
import { AppError } from '../common/errors/app-error';
import { ErrorText } from '../common/errors/error-texts';
import { Transactions, type Tx } from '../database/transactions';
import { OrdersService } from '../orders/admin/orders.service';
import { OrderLifecycle } from '../orders/order-lifecycle';
import { normalizePhone } from '../orders/recipient-parsing';
import { BrandOwnership } from '../security-journal/brand-ownership';
import { SecurityJournal } from '../security-journal/security-journal.service';
import type { ErasureDto, ExportQueryDto } from './dto/personal-data.dto';
import type { ErasureResponse, PersonalDataExportResponse } from './dto/personal-data.responses';
import { FINAL_STATUSES, PersonalDataRepository, type BuyerMatch } from './personal-data.repository';
import { normalizeEmail } from '../common/validation/email';

/** Which buyer a call names; exactly one field, else 400. */
function buyerOf(input: { phone?: string; email?: string; orderId?: number }, fields: string[]): BuyerMatch {
  const given = fields.filter((field) => input[field as keyof typeof input] !== undefined);
  if (given.length !== 1) throw AppError.badRequest([ErrorText.buyerExactlyOne(fields.join(', '))]);
  if (input.phone !== undefined) {
    const asSent = input.phone.trim();
    return { by: 'phone', asSent, normalized: normalizePhone(asSent) };
  }
  // Stored lowercased by JavaScript (order-statements.ts); PostgreSQL's lower() under the C collation folds ASCII only.
  if (input.email !== undefined) return { by: 'email', email: normalizeEmail(input.email) };
  return { by: 'orderId', orderId: input.orderId! };
}

/**
 * Buyers' personal data (contract §17): erasure that keeps the books, export, retention. The
 * journal entries name orders and counts, never the buyer: they are the record of destruction.
 */
@Injectable()
export class PersonalDataService {
  constructor(
    private readonly data: PersonalDataRepository,
    private readonly lifecycle: OrderLifecycle,
    private readonly orders: OrdersService,
    private readonly transactions: Transactions,
    private readonly journal: SecurityJournal,
    private readonly ownership: BrandOwnership,
  ) {}

  async erase(ctx: BrandContext, input: ErasureDto): Promise<ErasureResponse> {
    const match = buyerOf(input, ['phone', 'email', 'orderId']);
    if (match.by === 'orderId') {
      const owner = await this.data.brandOfOrder(match.orderId);
      // None: nothing matches (200, both lists empty); another brand's: journaled 403.
      if (owner) await this.ownership.assertOwned(ctx, owner, { resource: 'order', id: match.orderId });
    }
    return this.transactions.run(async (tx) => {
      const orders = await this.data.lockBuyerOrders(tx, ctx.brandId, match);
      const final = orders.filter((order) => FINAL_STATUSES.includes(order.status));
      const kept = orders
        .filter((order) => !FINAL_STATUSES.includes(order.status))
        .map((order) => ({ orderId: order.id, status: order.status }));
      // An order anonymised before is emptied again (the map is idempotent): a request or job that read its buyer
      // before then may have written a copy since. Its mark and event stay the first erasure's.
      await this.anonymise(
        tx,
        final.filter((order) => !order.erased).map((order) => order.id),
        final.filter((order) => order.erased).map((order) => order.id),
      );
      const erased = final.map((order) => order.id);
      await this.journal.recordWith(tx, ctx, {
        type: 'personal_data_erased',
        brandId: ctx.brandId,
        details: { by: match.by, erased, kept: kept.map((order) => order.orderId) },
      });
      return { erased, kept };
    });
  }

  /**
   * Anonymises orders locked by the caller in this transaction: every column of the map, in
   * every table holding a copy, then each order's mark and event through OrderLifecycle;
   * `again`, orders anonymised before, only have the map's columns emptied once more.
   */
  async anonymise(tx: Tx, orderIds: number[], again: number[] = []): Promise<void> {
    await this.data.anonymise(tx, [...orderIds, ...again]);
    for (const orderId of orderIds) await this.lifecycle.markPersonalDataErased(tx, orderId);
  }

  async export(ctx: BrandContext, query: ExportQueryDto): Promise<PersonalDataExportResponse> {
    const match = buyerOf(query, ['phone', 'email']);
    const ids = await this.data.buyerOrderIds(ctx.brandId, match);
    const orders = await this.orders.views(ids);
    await this.journal.record(ctx, {
      type: 'personal_data_exported',
      brandId: ctx.brandId,
      details: { by: match.by, count: orders.length },
    });
    return { orders };
  }

  async retention(ctx: BrandContext): Promise<{ days: number | null }> {
    return { days: await this.data.retentionDays(ctx.brandId) };
  }

  async setRetention(ctx: RequestContext & { brandId: number }, days: number | null): Promise<{ days: number | null }> {
    await this.transactions.run((tx) => this.data.setRetentionDays(tx, ctx.brandId, days));
    return { days };
  }
}
