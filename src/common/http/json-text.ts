/**
 * A response body already serialised as JSON (built by PostgreSQL), of the shape `T`. A route
 * that returns one declares `@Header('content-type', JSON_CONTENT_TYPE)`, so that both platforms
 * send the text as it is, with the type they give to objects they serialise themselves.
 */
export type JsonText<T> = string & { readonly __jsonOf?: T };

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';
