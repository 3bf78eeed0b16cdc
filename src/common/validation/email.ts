/**
 * An e-mail address as the service keeps and compares it, wherever it comes from (an account, a
 * brand's staff address, a buyer): trimmed and lower-cased, so one address is one value.
 */
export const normalizeEmail = (email: string): string => email.trim().toLowerCase();
