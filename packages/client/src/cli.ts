#!/usr/bin/env node
import { randomBytes } from 'node:crypto';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { Webhook } from 'standardwebhooks';
import { ApiError } from './api-error';
import { createClient, type Client } from './client';
import type { EventPosition, IteratedEvent } from './events';

const USAGE = `cil listen --url <base> --forward-to <http url> [--types a,b] [--cursor-file <path>] [--secret whsec_…]
cil tail --url <base> [--types a,b]
The key is read from CIL_API_KEY.`;

/** The forward is tried again after 1 s, doubling, this many times. */
const FORWARD_RETRIES = 5;

class Stop extends Error {}

function fail(message: string): never {
  throw new Stop(message);
}

function options() {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: {
      url: { type: 'string' },
      'forward-to': { type: 'string' },
      types: { type: 'string' },
      'cursor-file': { type: 'string' },
      secret: { type: 'string' },
    },
  });
  const command = positionals[0];
  if (command !== 'listen' && command !== 'tail') fail(`unknown command ${command ?? '(none)'}\n${USAGE}`);
  const key = process.env.CIL_API_KEY;
  if (!key) fail('CIL_API_KEY is not set: it holds the integration key cil reads events with');
  if (!values.url || !URL.canParse(values.url))
    fail(`--url must be the service's address, e.g. https://api.shop.example`);
  const forwardTo = values['forward-to'];
  if (command === 'listen' && (!forwardTo || !/^https?:\/\//.test(forwardTo)))
    fail('--forward-to must be an http(s) URL to forward the events to');
  return {
    command,
    key,
    url: values.url,
    forwardTo: forwardTo ?? '',
    types: values.types ? values.types.split(',').filter(Boolean) : undefined,
    cursorFile: values['cursor-file'],
    secret: values.secret,
  };
}

/** What the cursor file holds: the position and the types it counts. */
type Saved = EventPosition & { types?: string[] };

/** The position kept in the cursor file, or none when there is no file yet. */
function readPosition(file: string | undefined, types: string[] | undefined): EventPosition | undefined {
  if (!file) return undefined;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  const position = JSON.parse(text) as Saved;
  if (typeof position.skip !== 'number') fail(`${file} holds no cursor cil wrote`);
  // A position counts events of the types it was read with: another filter would skip or repeat some.
  if ((position.types ?? []).join(',') !== (types ?? []).join(','))
    fail(`${file} was written for --types ${position.types?.join(',') || '(all)'}: start with those, or another file`);
  return { after: position.after, skip: position.skip };
}

/** Written whole or not at all: a kill mid-write leaves the previous position. */
function savePosition(file: string, position: Saved): void {
  writeFileSync(`${file}.tmp`, JSON.stringify(position));
  renameSync(`${file}.tmp`, file);
}

/** The position after every event there is now: where a run without a cursor file starts. */
async function positionNow(api: Client, types: string[] | undefined): Promise<EventPosition> {
  let after: string | undefined;
  for (;;) {
    const page = await api.events.list({ after, types: types?.join(','), limit: 500 });
    after = page.nextCursor;
    if (page.items.length === 0) return { after, skip: 0 };
  }
}

/** The event as the service's own webhooks send it (contract §10), signed per Standard Webhooks. */
async function forward(event: IteratedEvent, to: string, signer: Webhook): Promise<number> {
  const body = JSON.stringify({ type: event.type, timestamp: event.occurredAt, data: event.data });
  const id = `msg_cil_${event.id}`;
  const at = new Date();
  for (let attempt = 0; ; attempt++) {
    let status: number | string;
    try {
      const response = await fetch(to, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          'webhook-id': id,
          'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
          'webhook-signature': signer.sign(id, at, body),
        },
        body,
      });
      await response.body?.cancel();
      if (response.ok) return response.status;
      status = response.status;
    } catch (error) {
      status = (error as Error).message;
    }
    if (attempt >= FORWARD_RETRIES)
      fail(`event ${event.id} (${event.type}) could not be forwarded to ${to}: ${status}, ${FORWARD_RETRIES} retries`);
    await new Promise((resolve) => setTimeout(resolve, 1000 * 2 ** attempt));
  }
}

/** On a long catch-up, a line every few seconds: how many forwarded, how fast, how old the latest is. */
function progress(): (event: IteratedEvent) => void {
  const started = Date.now();
  let count = 0;
  let lastLine = started;
  return (event) => {
    count += 1;
    const now = Date.now();
    const behindSeconds = Math.max(0, Math.round((now - Date.parse(event.occurredAt)) / 1000));
    if (now - lastLine < 5000 || behindSeconds < 60) return;
    lastLine = now;
    const rate = Math.round(count / ((now - started) / 1000));
    process.stderr.write(`catching up: ${count} events, ${rate}/s, the latest from ${behindSeconds} s ago\n`);
  };
}

async function main(): Promise<void> {
  const o = options();
  const api = createClient({ baseUrl: o.url, apiKey: o.key, retries: 2, backoffMs: 500 });
  const start = readPosition(o.cursorFile, o.types) ?? (await positionNow(api, o.types));
  // On standard error, so scripts and tests know the events from here on are followed.
  process.stderr.write(`cil: following ${o.types?.join(',') ?? 'every event type'} from ${o.url}\n`);
  // Stopped between two events, at once; while forwarding one, once its position is saved.
  let forwarding = false;
  let stopping = false;
  const stop = () => (forwarding ? (stopping = true) : process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  let signer: Webhook | undefined;
  if (o.command === 'listen') {
    const secret = o.secret ?? `whsec_${randomBytes(32).toString('base64')}`;
    if (!o.secret) process.stdout.write(`signing with ${secret}\n`);
    signer = new Webhook(secret);
  }
  const tick = progress();
  for await (const event of api.events.iterate({ types: o.types, ...start })) {
    if (signer) {
      forwarding = true;
      const status = await forward(event, o.forwardTo, signer);
      if (o.cursorFile) savePosition(o.cursorFile, { ...event.position, types: o.types });
      process.stdout.write(`${event.occurredAt} ${event.type} ${event.id} → ${status}\n`);
      forwarding = false;
      if (stopping) process.exit(0);
      tick(event);
    } else {
      process.stdout.write(
        `${JSON.stringify({ id: event.id, type: event.type, occurredAt: event.occurredAt, data: event.data })}\n`,
      );
    }
  }
}

/** One line on standard error naming the problem, and a non-zero exit. */
function explain(error: unknown): string {
  if (error instanceof Stop) return error.message;
  if (error instanceof ApiError)
    return error.status === 401
      ? `the service refused the key in CIL_API_KEY (401 ${error.error})`
      : `the service answered ${error.status} ${error.error}${error.details.length ? `: ${error.details.join('; ')}` : ''}`;
  const cause = (error as { cause?: { code?: string } }).cause?.code;
  return `could not reach the service${cause ? ` (${cause})` : ''}: ${(error as Error).message}`;
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`cil: ${explain(error)}\n`);
    process.exit(1);
  },
);
