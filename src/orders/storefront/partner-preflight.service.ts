import { Injectable } from '@nestjs/common';
import { CatalogMatcher, type StorefrontLineMatch } from '../../catalog/catalog-matcher';
import type { BrandContext } from '../../common/context/request-context';
import { INT4_MAX } from '../../common/validation/integer-text';
import type { PartnerOrderDto, PartnerOrderItemDto } from '../dto/partner-order.dto';
import type { PartnerPreflightResponse, PreflightLine } from '../dto/partner-preflight.responses';
import { OrderWriter } from '../order-writer';

/** The lowest stock PostgreSQL's integer holds: the order's stock statement fails below it (422). */
const STOCK_MIN = -INT4_MAX - 1;

/**
 * The storefront webhook's answer told in advance (contract §15): the same repeat check and the
 * same matching and pricing (CatalogMatcher.byStorefrontArticle, on CatalogSql's rules), reads
 * only. No order, stock movement, idempotency record, event or journal entry.
 */
@Injectable()
export class PartnerPreflightService {
  constructor(
    private readonly matcher: CatalogMatcher,
    private readonly writer: OrderWriter,
  ) {}

  async check(ctx: BrandContext, body: PartnerOrderDto): Promise<PartnerPreflightResponse> {
    const [earlier, resolution] = await Promise.all([
      // The webhook's repeat check, with its trimmed number.
      this.writer.findByPartnerId(ctx.brandId, body.partnerOrderId.trim()),
      this.matcher.byStorefrontArticle(ctx.brandId, body.items),
    ]);
    const lines = body.items.map((item, index) => preflightLine(item, resolution.lines[index]));
    const itemsTotalKopeks = lines.reduce((sum, line) => sum + (line.lineTotalKopeks ?? 0), 0);
    const deliveryCostKopeks = body.delivery?.deliveryCostKopeks ?? 0;
    const duplicate = earlier !== null;
    return {
      // A repeat is answered 200 before any line is matched; a new order needs every line and its stock in range.
      ok: duplicate || (resolution.problems.length === 0 && stockStaysInRange(resolution.lines, body.items)),
      duplicate,
      lines,
      itemsTotalKopeks,
      deliveryCostKopeks,
      totalKopeks: itemsTotalKopeks + deliveryCostKopeks,
      problems: resolution.problems,
    };
  }
}

function preflightLine(item: PartnerOrderItemDto, match: StorefrontLineMatch): PreflightLine {
  const sent = { article: item.article, size: item.size, quantity: item.quantity };
  if (!match.matched) {
    return {
      ...sent,
      matched: false,
      productId: null,
      sizeId: null,
      priceKopeks: null,
      lineTotalKopeks: null,
      stock: null,
      problem: match.problem,
    };
  }
  return {
    ...sent,
    matched: true,
    productId: match.productId,
    sizeId: match.sizeId,
    priceKopeks: match.priceKopeks,
    lineTotalKopeks: match.priceKopeks * item.quantity,
    stock: match.stock,
    problem: null,
  };
}

/** Whether every size's stock, less what the order takes of it, stays within PostgreSQL's integer. */
export function stockStaysInRange(matches: StorefrontLineMatch[], items: Array<{ quantity: number }>): boolean {
  const after = new Map<number, number>();
  matches.forEach((match, index) => {
    if (match.matched) after.set(match.sizeId, (after.get(match.sizeId) ?? match.stock) - items[index].quantity);
  });
  return [...after.values()].every((stock) => stock >= STOCK_MIN);
}
