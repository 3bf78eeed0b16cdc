import { Injectable } from '@nestjs/common';
import type { BrandContext } from '../common/context/request-context';
import { AppError } from '../common/errors/app-error';
import { ErrorText } from '../common/errors/error-texts';
import { Transactions, type Tx } from '../database/transactions';
import { OrderLifecycle, type LockedOrder } from '../orders/order-lifecycle';
import type { OrderStatus } from '../orders/order.entity';
import { BrandOwnership } from '../security-journal/brand-ownership';
import { StockLedger } from '../stock-ledger/stock-ledger';
import type { CreateReturnDto } from './dto/create-return.dto';
import type { ReceiveReturnDto } from './dto/return-actions.dto';
import type { CreatedReturnResponse, ReturnListResponse, ReturnResponse } from './dto/return.responses';
import type { ReturnStatus } from './return-states';
import type { ReturnListFilter } from './return-list.query';
import { canReturnMove } from './return-transitions';
import { toReturnView } from './return-views';
import { ReturnsRepository, type NewReturn, type ReturnRow } from './returns.repository';
import { actorOf } from '../common/context/actor';

/** Orders whose units may be returned (contract §9). */
const RETURNABLE: readonly OrderStatus[] = ['paid', 'shipped', 'completed', 'returned'];

/** The event each status a return moves to is reported as (contract §10). */
const EVENT_OF: Partial<Record<ReturnStatus, string>> = {
  requested: 'return.requested',
  approved: 'return.approved',
  declined: 'return.declined',
  received: 'return.received',
  closed: 'return.closed',
  canceled: 'return.canceled',
};

/**
 * Returns (contract §9). Every change locks the order's row first (through the order lifecycle),
 * then the return's: two returns of the same last unit, or two receipts of one line, wait for
 * each other and the second sees what the first wrote. Statuses move only as RETURN_TRANSITIONS
 * allows; restocked units reach stock through the ledger in the same transaction.
 */
@Injectable()
export class ReturnsService {
  constructor(
    private readonly returns: ReturnsRepository,
    private readonly transactions: Transactions,
    private readonly lifecycle: OrderLifecycle,
    private readonly ledger: StockLedger,
    private readonly ownership: BrandOwnership,
  ) {}

  async create(ctx: BrandContext, input: CreateReturnDto): Promise<{ status: 200 | 201; body: CreatedReturnResponse }> {
    const externalReturnId = input.externalReturnId.trim();
    const earlier = await this.returns.byExternalId(ctx.brandId, externalReturnId);
    if (earlier) return { status: 200, body: { duplicate: true, return: await this.view(earlier) } };

    const created = await this.transactions.run(async (tx) => {
      const order = await this.ownedOrder(ctx, tx, input.orderId);
      // Under the order's lock: a concurrent twin has committed by now, if there is one.
      const twin = await this.returns.byExternalId(ctx.brandId, externalReturnId, tx);
      if (twin) return { id: twin.id, duplicate: true };
      const items = this.linesFor(order, input.items, await this.returns.heldUnits(tx, order.id));
      const linesTotal = items.reduce((sum, item) => sum + item.priceKopeks * item.quantity, 0);
      if (input.refundKopeks !== undefined && input.refundKopeks > linesTotal) {
        throw AppError.badRequest([ErrorText.refundExceedsLines(linesTotal)]);
      }
      const id = await this.insert(tx, {
        brandId: ctx.brandId,
        orderId: order.id,
        orderNumber: order.orderNumber,
        externalReturnId,
        origin: 'customer',
        status: 'requested',
        reasonCode: input.reasonCode,
        reasonNote: input.reasonNote?.trim() || null,
        refundKopeks: input.refundKopeks ?? linesTotal,
        refundStatus: 'pending',
        items,
      });
      return id === null ? null : { id, duplicate: false };
    });
    // Another order's return took this externalReturnId at the same moment.
    const row = created
      ? await this.returns.byId(created.id)
      : await this.returns.byExternalId(ctx.brandId, externalReturnId);
    const duplicate = created?.duplicate ?? true;
    return { status: duplicate ? 200 : 201, body: { duplicate, return: await this.view(row!) } };
  }

  async list(
    ctx: BrandContext,
    query: ReturnListFilter & { limit: number; offset: number },
  ): Promise<ReturnListResponse> {
    const { rows, total } = await this.returns.page(ctx.brandId, query);
    return { items: await this.views(rows), total };
  }

  async get(ctx: BrandContext, returnId: number): Promise<ReturnResponse> {
    return this.view(await this.owned(ctx, returnId));
  }

  approve(ctx: BrandContext, returnId: number): Promise<ReturnResponse> {
    return this.move(ctx, returnId, 'approved');
  }

  decline(ctx: BrandContext, returnId: number, reasonNote?: string): Promise<ReturnResponse> {
    return this.move(ctx, returnId, 'declined', reasonNote?.trim() || undefined);
  }

  cancel(ctx: BrandContext, returnId: number): Promise<ReturnResponse> {
    return this.move(ctx, returnId, 'canceled');
  }

  close(ctx: BrandContext, returnId: number): Promise<ReturnResponse> {
    return this.move(ctx, returnId, 'closed');
  }

  /**
   * Units that came back: each line's received count grows (never past what is expected), the
   * `restock` ones go back to stock through the ledger, the order's lines count them as returned.
   */
  async receive(ctx: BrandContext, returnId: number, input: ReceiveReturnDto): Promise<ReturnResponse> {
    const found = await this.owned(ctx, returnId);
    await this.transactions.run(async (tx) => {
      const order = (await this.lifecycle.lockById(tx, found.order_id))!;
      const current = (await this.returns.lockById(tx, returnId))!;
      if (current.status !== 'partially_received' && !canReturnMove(current.status, 'partially_received')) {
        throw AppError.conflict(ErrorText.returnCannotMove(current.status, 'received'));
      }
      const items = await this.returns.itemsOf([returnId], tx);
      const receipt = new Map<number, { received: number; restocked: number }>();
      input.items.forEach((line, index) => {
        const item = items.find((i) => i.id === line.returnItemId);
        if (!item) throw AppError.unprocessable(ErrorText.notALineOfReturn(index, line.returnItemId));
        const entry = receipt.get(item.id) ?? { received: 0, restocked: 0 };
        entry.received += line.quantity;
        if (line.disposition === 'restock') entry.restocked += line.quantity;
        const left = item.quantity - item.received_quantity;
        if (entry.received > left) {
          throw AppError.unprocessable(ErrorText.receiptExceedsExpected(index, item.id, left));
        }
        receipt.set(item.id, entry);
      });
      const complete = items.every((i) => i.received_quantity + (receipt.get(i.id)?.received ?? 0) === i.quantity);
      const status: ReturnStatus = complete ? 'received' : 'partially_received';

      await this.returns.addReceived(
        tx,
        [...receipt].map(([returnItemId, counts]) => ({ returnItemId, ...counts })),
      );
      await this.ledger.apply(
        tx,
        current.brand_id,
        [...receipt].map(([id, counts]) => ({
          sizeId: items.find((i) => i.id === id)!.size_id,
          delta: counts.restocked,
          reason: 'return' as const,
          orderId: current.order_id,
          returnId: current.id,
          note: current.return_number,
        })),
        actorOf(ctx),
      );
      await this.lifecycle.recordReturned(
        tx,
        order,
        [...receipt].map(([id, counts]) => ({
          orderItemId: items.find((i) => i.id === id)!.order_item_id,
          quantity: counts.received,
        })),
      );
      if (current.status !== status) {
        await this.returns.setStatus(tx, returnId, status);
        if (EVENT_OF[status]) await this.returns.appendEvent(tx, returnId, EVENT_OF[status]);
      }
    });
    return this.get(ctx, returnId);
  }

  /** Records the refund (moving money is the bank's business): at most the return's refundKopeks, once. */
  async refund(ctx: BrandContext, returnId: number, refundKopeks?: number): Promise<ReturnResponse> {
    await this.owned(ctx, returnId);
    await this.transactions.run(async (tx) => {
      const current = (await this.returns.lockById(tx, returnId))!;
      if (current.status === 'declined' || current.status === 'canceled') {
        throw AppError.conflict(ErrorText.refundOfClosedOut(current.status));
      }
      if (current.refund_status !== 'pending')
        throw AppError.conflict(ErrorText.refundNotPending(current.refund_status));
      const max = Number(current.refund_kopeks);
      if (refundKopeks !== undefined && refundKopeks > max) {
        throw AppError.badRequest([ErrorText.refundExceedsReturn(max)]);
      }
      await this.returns.setRefunded(tx, returnId, refundKopeks ?? max);
      await this.returns.appendEvent(tx, returnId, 'return.refunded');
    });
    return this.get(ctx, returnId);
  }

  /**
   * The carrier brought a shipped order back (or could not deliver it): a return of every unit
   * not already in another return, on its way, once per order (its externalReturnId is the
   * order's). In the carrier event's transaction, on the order it locked.
   */
  async openCarrierReturn(tx: Tx, orderId: number): Promise<void> {
    const order = (await this.lifecycle.lockById(tx, orderId))!;
    const externalReturnId = `carrier-${order.orderNumber}`;
    if (await this.returns.byExternalId(order.brandId, externalReturnId, tx)) return;
    const held = await this.returns.heldUnits(tx, order.id);
    const items = order.lines
      .map((line) => ({ line, quantity: line.quantity - (held.get(line.id) ?? 0) }))
      .filter(({ quantity }) => quantity > 0)
      .map(({ line, quantity }) => ({ ...this.itemOf(line), quantity }));
    if (items.length === 0) return;
    await this.insert(tx, {
      brandId: order.brandId,
      orderId: order.id,
      orderNumber: order.orderNumber,
      externalReturnId,
      origin: 'carrier',
      status: 'in_transit',
      reasonCode: 'not_delivered',
      reasonNote: null,
      refundKopeks: 0,
      refundStatus: 'not_required',
      items,
    });
  }

  private async insert(tx: Tx, r: NewReturn): Promise<number | null> {
    const id = await this.returns.insert(tx, r);
    if (id !== null) await this.returns.appendEvent(tx, id, 'return.requested');
    return id;
  }

  private async move(ctx: BrandContext, returnId: number, to: ReturnStatus, reasonNote?: string) {
    await this.owned(ctx, returnId);
    await this.transactions.run(async (tx) => {
      const current = (await this.returns.lockById(tx, returnId))!;
      this.assertMove(current.status, to);
      await this.returns.setStatus(tx, returnId, to, reasonNote);
      if (EVENT_OF[to]) await this.returns.appendEvent(tx, returnId, EVENT_OF[to]);
    });
    return this.get(ctx, returnId);
  }

  private assertMove(from: ReturnStatus, to: ReturnStatus): void {
    if (!canReturnMove(from, to)) throw AppError.conflict(ErrorText.returnCannotMove(from, to));
  }

  /** The requested lines, checked against the order and what its other returns already hold. */
  private linesFor(order: LockedOrder, lines: CreateReturnDto['items'], held: Map<number, number>) {
    if (!RETURNABLE.includes(order.status)) throw AppError.unprocessable(ErrorText.orderNotReturnable(order.status));
    const asked = new Map<number, number>();
    const problems: string[] = [];
    const items = lines.flatMap((line, index) => {
      const orderLine = order.lines.find((l) => l.id === line.orderItemId);
      if (!orderLine) {
        problems.push(ErrorText.notALineOfOrder(index, line.orderItemId));
        return [];
      }
      if (asked.has(orderLine.id)) {
        problems.push(ErrorText.repeatedLine(index, orderLine.id));
        return [];
      }
      asked.set(orderLine.id, line.quantity);
      const left = orderLine.quantity - (held.get(orderLine.id) ?? 0);
      if (line.quantity > left) problems.push(ErrorText.returnExceedsOrdered(index, orderLine.id, left));
      return [{ ...this.itemOf(orderLine), quantity: line.quantity }];
    });
    if (problems.length > 0) throw AppError.unprocessable(problems[0], problems);
    return items;
  }

  private itemOf(line: LockedOrder['lines'][number]) {
    return {
      orderItemId: line.id,
      productId: line.productId,
      sizeId: line.sizeId,
      article: line.article,
      size: line.size,
      priceKopeks: line.priceKopeks,
    };
  }

  private async ownedOrder(ctx: BrandContext, tx: Tx, orderId: number): Promise<LockedOrder> {
    const order = await this.lifecycle.lockById(tx, orderId);
    return this.ownership.assertOwned(ctx, order, { resource: 'order', id: orderId });
  }

  private async owned(ctx: BrandContext, returnId: number): Promise<ReturnRow> {
    const row = await this.returns.byId(returnId);
    return this.ownership.assertOwned(ctx, row ? { ...row, brandId: row.brand_id } : null, {
      resource: 'return',
      id: returnId,
    });
  }

  private async view(row: ReturnRow): Promise<ReturnResponse> {
    return (await this.views([row]))[0];
  }

  private async views(rows: ReturnRow[]): Promise<ReturnResponse[]> {
    if (rows.length === 0) return [];
    const items = await this.returns.itemsOf(rows.map((r) => r.id));
    return rows.map((row) =>
      toReturnView(
        row,
        items.filter((i) => i.return_id === row.id),
      ),
    );
  }
}
