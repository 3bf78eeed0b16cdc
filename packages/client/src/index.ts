export { ApiError } from './api-error';
export { createClient, type Client, type ClientOptions, type Schemas } from './client';
export type { ApiEvent, EventIterateOptions, EventPosition, IteratedEvent } from './events';
export type { RetryOptions } from './retrying-fetch';
export { verifyWebhook, type WebhookMessage } from './verify-webhook';
export type { components, operations, paths } from './api-types';
