import { Identity1763769600000 } from './1763769600000-identity';
import { AccessKeysSitesJournal1763769700000 } from './1763769700000-access-keys-sites-journal';
import { CatalogInventoryOrderLines1763769800000 } from './1763769800000-catalog-inventory-order-lines';
import { PaymentCarrierFlows1763769900000 } from './1763769900000-payment-carrier-flows';
import { BrandOrderCounts1763770000000 } from './1763770000000-brand-order-counts';
import { LedgerRowsInTheirBrand1763770100000 } from './1763770100000-ledger-rows-in-their-brand';
import { LoginFailuresByTime1763770200000 } from './1763770200000-login-failures-by-time';
import { JournalByTime1763770300000 } from './1763770300000-journal-by-time';
import { ReturnsCancellationIdempotency1763770400000 } from './1763770400000-returns-cancellation-idempotency';
import { WebhookEndpoints1763770500000 } from './1763770500000-webhook-endpoints';
import { KeyLifecycle1763770600000 } from './1763770600000-key-lifecycle';
import { PartialCarrierIndexes1763770700000 } from './1763770700000-partial-carrier-indexes';
import { UnreadLineIndexes1763770800000 } from './1763770800000-unread-line-indexes';
import { OrderLineSizeOfItsProduct1763770900000 } from './1763770900000-order-line-size-of-its-product';
import { IdempotencyCommitLog1763771300000 } from './1763771300000-idempotency-commit-log';
import { WebhookDueNotify1763771000000 } from './1763771000000-webhook-due-notify';
import { WebhookDueWakeByWriter1763771100000 } from './1763771100000-webhook-due-wake-by-writer';
import { OrderCountSlotPerConnection1763771200000 } from './1763771200000-order-count-slot-per-connection';
import { RequestLog1763771400000 } from './1763771400000-request-log';
import { DomainEventPositions1763771500000 } from './1763771500000-domain-event-positions';
import { BacklogIndexes1763771600000 } from './1763771600000-backlog-indexes';
import { OrderUpdatedAt1763771800000 } from './1763771800000-order-updated-at';
import { SizeStockEvents1763771900000 } from './1763771900000-size-stock-events';
import { LeanWebhookSuccesses1763771950000 } from './1763771950000-lean-webhook-successes';
import { PersonalData1763772100000 } from './1763772100000-personal-data';
import { DomainEventSubjectType1763772200000 } from './1763772200000-domain-event-subject-type';
import { StockEventStorage1763772300000 } from './1763772300000-stock-event-storage';
import { OrderPathCheckDomains1763772400000 } from './1763772400000-order-path-check-domains';
import { OrderCountInStatement1763772500000 } from './1763772500000-order-count-in-statement';
import { RepeatsCounted1763772600000 } from './1763772600000-repeats-counted';
import { StoreTeam1763772700000 } from './1763772700000-store-team';
import { SecondFactor1763772800000 } from './1763772800000-second-factor';
import { DataThatGrows1763772900000 } from './1763772900000-data-that-grows';
import { BrandReturnCounts1763773000000 } from './1763773000000-brand-return-counts';

/** Every migration, in order. A new migration is added here as well as in its own file. */
export const migrations = [
  Identity1763769600000,
  AccessKeysSitesJournal1763769700000,
  CatalogInventoryOrderLines1763769800000,
  PaymentCarrierFlows1763769900000,
  BrandOrderCounts1763770000000,
  LedgerRowsInTheirBrand1763770100000,
  LoginFailuresByTime1763770200000,
  JournalByTime1763770300000,
  ReturnsCancellationIdempotency1763770400000,
  WebhookEndpoints1763770500000,
  KeyLifecycle1763770600000,
  PartialCarrierIndexes1763770700000,
  UnreadLineIndexes1763770800000,
  OrderLineSizeOfItsProduct1763770900000,
  WebhookDueNotify1763771000000,
  WebhookDueWakeByWriter1763771100000,
  OrderCountSlotPerConnection1763771200000,
  IdempotencyCommitLog1763771300000,
  RequestLog1763771400000,
  DomainEventPositions1763771500000,
  BacklogIndexes1763771600000,
  OrderUpdatedAt1763771800000,
  SizeStockEvents1763771900000,
  LeanWebhookSuccesses1763771950000,
  PersonalData1763772100000,
  DomainEventSubjectType1763772200000,
  StockEventStorage1763772300000,
  OrderPathCheckDomains1763772400000,
  OrderCountInStatement1763772500000,
  RepeatsCounted1763772600000,
  StoreTeam1763772700000,
  SecondFactor1763772800000,
  DataThatGrows1763772900000,
  BrandReturnCounts1763773000000,
];
