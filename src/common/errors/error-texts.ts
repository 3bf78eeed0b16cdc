/**
 * Every error text a client sees, in one list: those the spec and the API contract fix (clients
 * compare them character for character) and the service's own. Validation messages of the DTOs
 * are class-validator's, named after the field they are about.
 */
export const ErrorText = {
  // Fixed by the contract.
  unauthorized: 'Unauthorized',
  invalidToken: 'Invalid token',
  invalidCsrfToken: 'Invalid CSRF token',
  missingApiKey: 'Missing Authorization: Bearer <apiKey>',
  invalidApiKey: 'Invalid or inactive API key',
  invalidSignature: 'Invalid signature',
  missingPermission: (permission: string) => `Forbidden: Missing permission ${permission}`,
  brandNotAllowed: 'Forbidden: brand not allowed',
  noBrandAccess: 'Forbidden: no brand access configured',
  tooManyLoginAttempts: 'Too many login attempts',
  tooManyRequests: 'Too many requests',
  notFound: 'Not found',
  malformedJson: 'Malformed JSON body',
  payloadTooLarge: 'Payload too large',
  serviceUnavailable: 'Service unavailable',
  idempotencyKeyReused: 'Idempotency key reused with a different request',
  idempotencyKeyInProgress: 'A request with this idempotency key is in progress',
  importHasErrors: 'Import has errors',

  // The service's own.
  sessionRequired: 'Forbidden: a user session is required',
  unsupportedMediaType: 'Unsupported media type: send application/json',
  unsupportedCharset: (charset: string) => `charset ${charset || '(empty)'} is not supported: send UTF-8`,
  notJson: 'body is not valid JSON',
  protoKey: 'body must not contain the key "__proto__"',
  constructorPrototype: 'body must not contain a "constructor" object with a "prototype" key',
  nestedTooDeep: (levels: number) => `body must not be nested more than ${levels} levels deep`,
  nulInText: (path: string) => `${path} must not contain NUL characters`,
  nulInKeys: (path: string) => `${path} must not contain NUL characters in its keys`,
  notPositiveId: (name: string) => `${name} must be a positive integer`,
  stockOutOfRange: 'Stock would leave the supported range (PostgreSQL integer): nothing was changed',
  numberOutOfRange: 'A number in the request is beyond the supported range: nothing was changed',
  malformedHttpRequest: 'Malformed HTTP request',
  malformedUrl: 'Malformed URL: a percent-escape in the path does not decode',
  requestTimeout: 'Request timeout',
  headersTooLarge: 'Request headers too large',
  databaseNotAnswering: 'database: not answering',
  lineMatchesNoProduct: (index: number, label: string, article: string) =>
    `items.${index}: ${label} "${article}" matches no product`,
  lineHasNoSize: (index: number, article: string, size: string) =>
    `items.${index}: product "${article}" has no size "${size}"`,
  lineSizeMissing: (index: number, sizeId: number) => `items.${index}: size ${sizeId} does not exist`,
  orderCannotMove: (from: string, to: string) => `An order that is ${from} cannot become ${to}`,
  orderRegisteredWithCarrier: 'An order registered with the carrier (or being registered) cannot be cancelled',
  repeatedAuthorization: 'Authorization must be sent only once',
  invalidIdempotencyKey: 'Idempotency-Key must be 1 to 255 printable ASCII characters',
  addressNotAllowed: 'Forbidden: address not allowed',
  keyNotRollable: (state: string) => `A ${state} key cannot be rolled`,
  rollGraceTooLong: 'oldKeyExpiresAt must be at most 7 days ahead',
  rollGracePastExpiry: "oldKeyExpiresAt must not be after the key's own expiry",
  webhookUrlRefused: (reason: string) => `url is refused: ${reason}`,
  buyerExactlyOne: (fields: string) => `Exactly one of ${fields} must be given`,
  returnCannotMove: (from: string, to: string) => `A return that is ${from} cannot become ${to}`,
  orderNotReturnable: (status: string) => `An order that is ${status} cannot be returned`,
  notALineOfOrder: (index: number, orderItemId: number) =>
    `items.${index}: order item ${orderItemId} is not a line of this order`,
  returnExceedsOrdered: (index: number, orderItemId: number, left: number) =>
    `items.${index}: order item ${orderItemId} has ${left} unit(s) left to return`,
  repeatedLine: (index: number, id: number) => `items.${index}: line ${id} is listed twice`,
  refundExceedsLines: (max: number) => `refundKopeks must not exceed the lines' total, ${max}`,
  refundExceedsReturn: (max: number) => `refundKopeks must not exceed the return's refundKopeks, ${max}`,
  refundNotPending: (status: string) => `A return whose refund is ${status} cannot be refunded`,
  refundOfClosedOut: (status: string) => `A return that is ${status} cannot be refunded`,
  notALineOfReturn: (index: number, returnItemId: number) =>
    `items.${index}: return item ${returnItemId} is not a line of this return`,
  receiptExceedsExpected: (index: number, returnItemId: number, left: number) =>
    `items.${index}: return item ${returnItemId} has ${left} unit(s) still expected`,
  productArticleTaken: 'A product with this article already exists in the brand',
  storefrontArticleTaken: 'A product with this storefrontArticle already exists in the brand',
  sizeNameTaken: 'The product already has a size with this name',
  sizeNameRepeated: (name: string) => `size names must be unique per product (case-insensitive): "${name}" repeats`,
  emailTaken: 'A user with this e-mail already exists',
  slugTaken: 'A brand with this slug already exists',
  lastSuperadmin: 'The last active superadministrator cannot be removed',
  expiryInPast: 'expiresAt must be in the future',
  settingsNotForKeys: 'settings.manage cannot be granted to an integration key',
  permissionsOrFullAccess: 'give either a non-empty permissions list or fullAccess: true, not both',
  unknownEventType: (name: string) => `types must list event types or prefixes such as order.*: "${name}" is neither`,
  malformedCursor: 'after must be a cursor from an earlier answer',
  // The catalog import's (contract §18): the file, then its lines (each `line N: <text>`).
  unsupportedMediaTypeCsv: 'Unsupported media type: send text/csv',
  importNotUtf8: 'the file is not UTF-8 text',
  importNoHeader: 'the file has no header line',
  importHeaderUnreadable: 'the header line is not valid CSV',
  importUnknownColumn: (name: string) =>
    `column "${name}" is unknown: the columns are article, name, storefrontArticle, priceKopeks, size, sizePriceKopeks`,
  importRepeatedColumn: (name: string) => `column "${name}" is repeated`,
  importTooManyColumns: (count: number, most: number) =>
    `the header has ${count} columns, more than ${most}: the columns are article, name, storefrontArticle, priceKopeks, size, sizePriceKopeks`,
  importNoArticleColumn: 'the header has no article column',
  importLine: (line: number, problems: string[]) => `line ${line}: ${problems.join('; ')}`,
  importQuoteNotClosed: 'a quoted cell is not closed',
  importBadQuotes:
    'a quote in a cell must be doubled, and a quoted cell must end at a separator (the lines after it were not read)',
  importLineTooLong: 'the line is too long (the lines after it were not read)',
  importCellCount: (cells: number, columns: number) => `has ${cells} cells where the header has ${columns}`,
  importCellRequired: (column: string) => `${column} is required`,
  importNewProductNeeds: (column: string) => `${column} is required on the first line of a new product`,
  importTooLong: (column: string, max: number) => `${column} must be at most ${max} characters`,
  importNotKopeks: (column: string, max: number) => `${column} must be an integer from 0 to ${max}`,
  importSizePriceAlone: 'sizePriceKopeks is given without a size',
  importDiffers: (column: string, article: string, line: number) =>
    `${column} differs from line ${line} of article "${article}"`,
  importSizePriceDiffers: (size: string, line: number) => `size "${size}" has another sizePriceKopeks on line ${line}`,
  importStorefrontHeld: (storefrontArticle: string, article: string) =>
    `storefrontArticle "${storefrontArticle}" belongs to product "${article}"`,
  importStorefrontClaimed: (storefrontArticle: string, line: number) =>
    `storefrontArticle "${storefrontArticle}" is claimed by another article on line ${line}`,
  internal: 'Internal server error',
} as const;
