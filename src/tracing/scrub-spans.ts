import { withoutSecrets } from '../common/runtime/without-secrets';

/**
 * What a span may not carry out of the process (contract §15: no key, token, secret or buyer's
 * data). The instrumentations are set up to record none of it; this is the second line, applied
 * to every span as it is exported, so a library's new attribute cannot carry one out either.
 */

/** SpanKind.CLIENT of the OpenTelemetry API. */
const CLIENT = 2;

/**
 * Query strings (cursors today, anything tomorrow), captured headers, statement parameters, and
 * exception texts: an error's message can quote a value or a peer's answer echoing a buyer's data.
 */
const DROPPED =
  /^(url\.query|http\.(request|response)\.header\..*|db\.postgresql\.values|db\.query\.parameter\..*|exception\.(message|stacktrace))$/;

/** Attributes that may hold a URL or a path with its query string. */
const URLS = new Set(['url.full', 'url.original', 'url.path', 'http.url', 'http.target']);

type MutableAttributes = Record<string, unknown>;

export interface ScrubbableSpan {
  readonly kind: number;
  readonly attributes: object;
  readonly events: ReadonlyArray<{ readonly attributes?: object }>;
  readonly status: { readonly message?: string };
}

export function scrubSpan(span: ScrubbableSpan): void {
  const client = span.kind === CLIENT;
  scrubAttributes(span.attributes as MutableAttributes, client);
  for (const event of span.events) {
    if (event.attributes) scrubAttributes(event.attributes as MutableAttributes, client);
  }
  // The status message is an error's message, as exception.message is.
  if (span.status.message !== undefined) delete (span.status as { message?: string }).message;
}

function scrubAttributes(attributes: MutableAttributes, client: boolean): void {
  for (const name of Object.keys(attributes)) {
    if (DROPPED.test(name)) {
      delete attributes[name];
      continue;
    }
    const value = attributes[name];
    if (!URLS.has(name) || typeof value !== 'string') continue;
    if (client) {
      // Where we call out to (a carrier, an integration's webhook receiver), only the origin: a
      // receiver's URL may carry its own token in the path as well as the query.
      if (name === 'url.full' || name === 'http.url') attributes[name] = originOf(value);
      else delete attributes[name];
    } else {
      // A caller may put a key or a secret in the path itself.
      attributes[name] = withoutSecrets(withoutQuery(value));
    }
  }
}

function withoutQuery(url: string): string {
  const end = url.search(/[?#]/);
  return end === -1 ? url : url.slice(0, end);
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return '';
  }
}
