import { CarrierStub } from './support/carrier-stub';
import { CARRIER_SECRET, PAYMENT_SECRET } from './support/signed';
import { SharedSuite } from './support/suite';
import { describeAccessMatrix } from './contract/access-matrix';
import { describeHostileInput } from './contract/hostile-input';
import { describeOpenApiFuzz } from './contract/openapi-fuzz';
import { describeOpenApiGeneratorFit } from './contract/openapi-generator-fit';
import { describeOpenApiDataChecks } from './contract/openapi-data-checks';
import { CONTRACT_PUBLIC_URL, describeOpenApiResponses } from './contract/openapi-responses';

/**
 * The contract seen from outside, on one app: every route's documented answers, the fuzz, hostile
 * input and the access matrix. Limits high enough that the fuzz is never rate limited; webhook
 * endpoints on this machine (the carrier stub stands in for a receiver), delivered by hand.
 */
const carrier = new CarrierStub({ token: 'carrier-token' });
let carrierUrl = '';
const shared = new SharedSuite(async () => {
  carrierUrl = await carrier.start();
  return {
    env: {
      PAYMENT_WEBHOOK_SECRET: PAYMENT_SECRET,
      CARRIER_WEBHOOK_SECRET: CARRIER_SECRET,
      CARRIER_API_URL: carrierUrl,
      CARRIER_API_TOKEN: 'carrier-token',
      OUTBOX_POLL_MS: '100',
      RATE_LIMIT_PER_SECOND: '100000',
      RATE_LIMIT_BURST: '100000',
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      WEBHOOK_WORKER: 'false',
      PUBLIC_URL: CONTRACT_PUBLIC_URL,
    },
  };
});
afterAll(() => carrier.stop());

describeOpenApiResponses(shared, () => carrierUrl);
describeHostileInput(shared);
describeOpenApiFuzz(shared);
describeOpenApiGeneratorFit(shared);
describeOpenApiDataChecks(shared);
// Last: it logs its callers out.
describeAccessMatrix(shared);
