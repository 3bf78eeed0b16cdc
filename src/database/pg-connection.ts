/** The injection token of the pg ClientConfig that the service's own connections open with. */
export const PG_CONNECTION = Symbol('PG_CONNECTION');
