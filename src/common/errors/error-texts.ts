/** Exact texts fixed by the spec and the API contract; clients compare them character for character. */
export const ErrorText = {
  unauthorized: 'Unauthorized',
  invalidToken: 'Invalid token',
  invalidCsrfToken: 'Invalid CSRF token',
  missingApiKey: 'Missing Authorization: Bearer <apiKey>',
  invalidApiKey: 'Invalid or inactive API key',
  invalidSignature: 'Invalid signature',
  missingPermission: (permission: string) => `Forbidden: Missing permission ${permission}`,
  brandNotAllowed: 'Forbidden: brand not allowed',
  noBrandAccess: 'Forbidden: no brand access configured',
  sessionRequired: 'Forbidden: a user session is required',
  tooManyLoginAttempts: 'Too many login attempts',
  notFound: 'Not found',
  malformedJson: 'Malformed JSON body',
  payloadTooLarge: 'Payload too large',
  internal: 'Internal server error',
  serviceUnavailable: 'Service unavailable',
} as const;
