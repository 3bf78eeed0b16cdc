import type { Permission } from '../context/permissions';

export const IS_PUBLIC = 'auth:public';
export const REQUIRED_PERMISSION = 'auth:permission';
export const ANY_PERMISSION = 'auth:any-permission';
export const NEEDS_BRAND = 'auth:needs-brand';
export const SESSION_ONLY = 'auth:session-only';
export const AUTH_REALM = 'auth:realm';
export const SIGNED_WEBHOOK = 'auth:signed-webhook';
export const RECENT_AUTHENTICATION = 'auth:recent-authentication';
export const KEY_CHECKED_BY_STATEMENT = 'auth:key-checked-by-statement';
export const ACCOUNT_ROUTE = 'auth:account-route';

export type WebhookFlow = 'payment' | 'carrier';

export type RequiredPermission = Permission;
