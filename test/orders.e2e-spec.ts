import { CarrierStub } from './support/carrier-stub';
import { CARRIER_SECRET, PAYMENT_SECRET } from './support/signed';
import { SharedSuite } from './support/suite';
import { describeOrderCancellation } from './orders/order-cancellation';
import { describeOrderListFilters } from './orders/order-list-filters';
import { describeListPaging } from './orders/list-paging';
import { describeOrdersAdmin } from './orders/orders-admin';
import { describeReturnsProperties } from './orders/returns-properties';
import { describeReturns } from './orders/returns';

/**
 * Orders, their lists, cancellations and returns on one app: each block makes its own brands. The
 * outbox worker is driven by hand (OUTBOX_WORKER=false), so a shipment job runs when a test says.
 */
const carrier = new CarrierStub({ token: 'carrier-token' });
const shared = new SharedSuite(async () => ({
  env: {
    OUTBOX_WORKER: 'false',
    PAYMENT_WEBHOOK_SECRET: PAYMENT_SECRET,
    CARRIER_WEBHOOK_SECRET: CARRIER_SECRET,
    CARRIER_API_URL: await carrier.start(),
    CARRIER_API_TOKEN: 'carrier-token',
  },
}));
afterAll(() => carrier.stop());

// First: its tests run the outbox worker by hand, which would register the others' queued shipments too.
describeOrderCancellation(shared, carrier);
describeOrderListFilters(shared);
describeListPaging(shared);
describeReturns(shared);
describeReturnsProperties(shared);
// Last: one of its tests deletes every block's events and undoes and redoes migrations, which
// leaves the app's cached types behind.
describeOrdersAdmin(shared);
