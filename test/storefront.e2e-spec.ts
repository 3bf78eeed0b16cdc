import { SharedSuite } from './support/suite';
import { describePreflightProperties } from './storefront/preflight-properties';
import { describePreflight } from './storefront/preflight';
import { describeWebhookProperties } from './storefront/webhook-properties';

/**
 * The storefront's preflight and its webhook under generated input, on one app: limits high enough
 * that generated runs are never rate limited; webhook endpoints on this machine, never delivered.
 */
const shared = new SharedSuite({
  env: {
    OUTBOX_WORKER: 'false',
    RATE_LIMIT_PER_SECOND: '100000',
    RATE_LIMIT_BURST: '100000',
    WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
    WEBHOOK_WORKER: 'false',
  },
});

describePreflight(shared);
describePreflightProperties(shared);
describeWebhookProperties(shared);
