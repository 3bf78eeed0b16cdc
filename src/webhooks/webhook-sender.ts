import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { allowedAddresses } from './address-guard';

export interface SendResult {
  /** The receiver's status, or null when no answer came. */
  status: number | null;
  durationMs: number;
  error: string | null;
  /** The first KiB of the answer's body. */
  body: string | null;
}

const BODY_KEPT = 1024;
// Connections are kept and reused per receiver: a socket stays bound to the address the guard checked when it opened.
const AGENTS = { 'http:': new http.Agent({ keepAlive: true }), 'https:': new https.Agent({ keepAlive: true }) };

/**
 * One POST of a message. The connection goes to an address the guard checked at this moment (a
 * lookup of our own, so a DNS answer cannot change between check and connect); redirects are not
 * followed (a 3xx is a failure); the whole exchange must end within `timeoutMs`.
 */
export async function sendMessage(
  url: string,
  headers: Record<string, string>,
  body: string,
  options: { timeoutMs: number; allowPrivate: boolean },
): Promise<SendResult> {
  const started = Date.now();
  const target = new URL(url);
  const lookup: LookupFunction = (hostname, lookupOptions, callback) => {
    allowedAddresses(hostname, options.allowPrivate).then(
      (found) => {
        if (lookupOptions.all) callback(null, found);
        else callback(null, found[0].address, found[0].family);
      },
      (error: Error) => callback(Object.assign(error, { code: 'EFORBIDDEN' }), '', 4),
    );
  };
  // A literal address skips `lookup`: the guard checks it before connecting instead.
  if (isIP(target.hostname.replace(/^\[|\]$/g, '')) !== 0) {
    try {
      await allowedAddresses(target.hostname, options.allowPrivate);
    } catch (error) {
      return { status: null, durationMs: Date.now() - started, error: (error as Error).message, body: null };
    }
  }
  const client = target.protocol === 'https:' ? https : http;
  return new Promise<SendResult>((resolve) => {
    const finish = (result: Omit<SendResult, 'durationMs'>) => resolve({ ...result, durationMs: Date.now() - started });
    const request = client.request(
      target,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': Buffer.byteLength(body) },
        lookup,
        agent: AGENTS[target.protocol as 'http:' | 'https:'],
        timeout: options.timeoutMs,
      },
      (response) => {
        const chunks: Buffer[] = [];
        let kept = 0;
        response.on('data', (chunk: Buffer) => {
          if (kept < BODY_KEPT) {
            chunks.push(chunk.subarray(0, BODY_KEPT - kept));
            kept += Math.min(chunk.length, BODY_KEPT - kept);
          }
        });
        response.on('end', () => finish({ status: response.statusCode ?? null, error: null, body: keptText(chunks) }));
        response.on('error', (error) =>
          finish({ status: response.statusCode ?? null, error: error.message, body: null }),
        );
      },
    );
    const deadline = setTimeout(
      () => request.destroy(new Error(`no answer within ${options.timeoutMs} ms`)),
      options.timeoutMs,
    );
    request.on('close', () => clearTimeout(deadline));
    request.on('timeout', () => request.destroy(new Error(`no answer within ${options.timeoutMs} ms`)));
    request.on('error', (error) => finish({ status: null, error: error.message.slice(0, 500), body: null }));
    request.end(body);
  });
}

/**
 * The first KiB of an answer as text PostgreSQL takes: without NUL characters, which a text column
 * refuses, and a refused statement would leave every success batched with this one unrecorded.
 */
function keptText(chunks: Buffer[]): string {
  return Buffer.concat(chunks).toString('utf8').replaceAll('\u0000', '');
}
