/**
 * The API's closed lists, from the service's own sources (bundled in at build time), so the page
 * never offers a permission or an event type the API does not know.
 */
export { BRAND_PERMISSIONS, SETTINGS_MANAGE } from '../../src/common/context/permissions';
export {
  ORDER_EVENT_TYPES,
  PRODUCT_EVENT_TYPES,
  RETURN_EVENT_TYPES,
  STOCK_EVENT_TYPES,
} from '../../src/webhooks/event-types';
