/** The API's answers the admin area reads (contract §1–§13). */

export interface Membership {
  brandId: number;
  brandName: string;
  brandSlug: string;
  permissions: string[];
}

export interface Me {
  id: number;
  email: string;
  isSuperadmin: boolean;
  memberships: Membership[];
  csrfToken: string;
}

export interface Brand {
  id: number;
  name: string;
  slug: string;
}

export interface IntegrationKey {
  id: number;
  name: string;
  keyHint: string;
  permissions: string[];
  fullAccess: boolean;
  expiresAt: string | null;
  status: 'active' | 'expired' | 'revoked';
  createdAt: string;
  createdBy: { id: number; email: string };
  lastUsedAt: string | null;
  lastUsedIp: string | null;
  allowedIps: string[] | null;
  rolledFromId: number | null;
  key?: string;
}

export interface Site {
  id: number;
  name: string;
  active: boolean;
  createdAt: string;
}

export interface SiteKey {
  id: number;
  keyHint: string | null;
  siteId: number;
  status: 'active' | 'revoked';
  createdAt: string;
  revokedAt: string | null;
  lastUsedAt: string | null;
  key?: string;
}

export interface Size {
  id: number;
  name: string;
  priceKopeks: number | null;
  stock: number;
}

export interface Product {
  id: number;
  name: string;
  article: string;
  storefrontArticle: string | null;
  priceKopeks: number;
  sizes: Size[];
}

export interface OrderSummary {
  id: number;
  orderNumber: string;
  source: string;
  partnerOrderId: string | null;
  status: string;
  paymentStatus: string;
  deliveryStatus: string | null;
  recipientName: string;
  totalKopeks: number;
  createdAt: string;
}

export interface Order extends Omit<OrderSummary, 'recipientName'> {
  recipient: { fullName: string; phone: string; email: string | null };
  delivery: { city: string; pvzAddress: string | null };
  carrierTrackingNumber: string | null;
  items: Array<{
    id: number;
    article: string;
    size: string;
    quantity: number;
    priceKopeks: number;
    lineTotalKopeks: number;
    returnedQuantity: number;
  }>;
}

export interface Return {
  id: number;
  returnNumber: string;
  orderId: number;
  orderNumber: string;
  externalReturnId: string;
  origin: string;
  status: string;
  reasonCode: string;
  reasonNote: string | null;
  refundKopeks: number;
  refundStatus: string;
  createdAt: string;
  items: Array<{
    id: number;
    article: string;
    size: string;
    quantity: number;
    receivedQuantity: number;
    restockedQuantity: number;
  }>;
}

export interface Endpoint {
  id: number;
  url: string;
  eventTypes: string[];
  description: string | null;
  enabled: boolean;
  createdAt: string;
  secret?: string;
}

export interface Delivery {
  messageId: string;
  eventType: string;
  status: string;
  attempts: Array<{ at: string; responseStatus: number | null; durationMs: number; error: string | null }>;
  nextAttemptAt: string | null;
  createdAt: string;
}

export interface JournalEntry {
  id: number;
  at: string;
  type: string;
  actor: { kind: string; id: number | null } | null;
  ip: string | null;
  details: Record<string, unknown>;
}
