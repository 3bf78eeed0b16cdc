/**
 * The API's answers the admin area reads (contract §1–§13): the service's own response classes,
 * imported as types only, so the page cannot drift from what the API sends and no decorator or
 * server module reaches the bundle (esbuild erases `export type`).
 */
export type { ErrorBody } from '../../src/common/dto/error-body';
export type {
  BrandListResponse,
  BrandResponse,
  LoginResponse,
  MeResponse,
  SessionEntry,
  SessionListResponse,
  UserListResponse,
} from '../../src/identity/dto/identity.responses';
export type {
  InvitationInfoResponse,
  InvitationListResponse,
  InvitationMembershipResponse,
  InvitationResponse,
  MemberListResponse,
  MemberResponse,
} from '../../src/identity/dto/team.responses';
export type {
  PasskeyEntry,
  PasskeyListResponse,
  RecoveryCodesResponse,
  SecondStepResponse,
  SecurityPolicyResponse,
  TotpEnrolmentResponse,
} from '../../src/identity/dto/second-factor.responses';
export type {
  IntegrationKeyListResponse,
  IntegrationKeyResponse,
  IssuedIntegrationKeyResponse,
} from '../../src/access-keys/dto/integration-key.responses';
export type {
  IssuedSiteKeyResponse,
  SiteKeyListResponse,
  SiteKeyResponse,
  SiteListResponse,
  SiteResponse,
} from '../../src/production-sites/dto/production-site.responses';
export type { ProductListResponse, ProductResponse } from '../../src/catalog/dto/product.responses';
export type { ImportResponse } from '../../src/catalog/dto/catalog-import.dto';
export type { OrderListResponse, OrderResponse } from '../../src/orders/dto/order.responses';
export type { ReturnListResponse, ReturnResponse } from '../../src/returns/dto/return.responses';
export type {
  CreatedWebhookEndpointResponse,
  WebhookDeliveryListResponse,
  WebhookEndpointListResponse,
  WebhookEndpointResponse,
  WebhookSecretResponse,
} from '../../src/webhooks/dto/webhook.responses';
export type {
  ErasureResponse,
  PersonalDataExportResponse,
  RetentionResponse,
} from '../../src/personal-data/dto/personal-data.responses';
export type { JournalListResponse } from '../../src/security-journal/dto/journal.responses';
export type { KeyRequestListResponse, KeyUsageResponse } from '../../src/request-log/dto/request-log.responses';
