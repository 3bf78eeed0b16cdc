import type { ResolvedSize } from '../catalog/catalog-matcher';
import type { DeliveryDto } from './dto/delivery.dto';
import type { RecipientDto } from './dto/recipient.dto';
import type { OrderSource, OrderStatus, PaymentStatus } from './order.entity';

/** A line resolved to a catalog size and priced. */
export interface PricedLine extends ResolvedSize {
  quantity: number;
  priceKopeks: number;
}

/** What an order says besides its lines. */
export interface OrderFacts {
  brandId: number;
  source: OrderSource;
  partnerOrderId: string | null;
  status: OrderStatus;
  paymentStatus: PaymentStatus;
  orderedAt: Date;
  recipient: RecipientDto;
  delivery?: DeliveryDto;
  carrierOrderUuid?: string;
  carrierTrackingNumber?: string;
  waybillUrl?: string;
  promoCode?: string;
  comment?: string;
  requestFingerprint?: string;
}

/** A platform order: lines already resolved to sizes and priced. */
export interface NewOrder extends OrderFacts {
  lines: PricedLine[];
}

/** A storefront line as it came: matched and priced by ACCEPT_STOREFRONT_ORDER. */
export interface StorefrontLine {
  storefrontArticle: string;
  size: string;
  quantity: number;
  priceKopeks?: number;
}

export interface StorefrontOrder extends OrderFacts {
  lines: StorefrontLine[];
}

export interface OrderRef {
  id: number;
  orderNumber: string;
  hash: string;
  totalKopeks: number;
}
