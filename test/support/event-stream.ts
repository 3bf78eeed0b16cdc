/** An event as `GET /events` answers it (contract §16). */
export interface ReadEvent {
  id: number;
  type: string;
  occurredAt: string;
  data: Record<string, unknown> & { sequence?: number };
}

export interface EventPage {
  items: ReadEvent[];
  nextCursor: string;
}

/** Sends `GET /events?<query>` and gives the status and the body. */
export type EventPageFetch = (query: string) => Promise<{ status: number; body: any }>;

/** One page after `after` (from the start without it); anything but a 200 fails. */
export async function readPage(
  fetch: EventPageFetch,
  options: { after?: string; limit?: number; types?: string } = {},
): Promise<EventPage> {
  const query = new URLSearchParams();
  if (options.after !== undefined) query.set('after', options.after);
  if (options.limit !== undefined) query.set('limit', String(options.limit));
  if (options.types !== undefined) query.set('types', options.types);
  const response = await fetch(query.toString());
  if (response.status !== 200)
    throw new Error(`GET /events?${query.toString()} → ${response.status} ${JSON.stringify(response.body)}`);
  return response.body as EventPage;
}

/** Follows nextCursor from `after` (or the start) until a page is empty; every event read, in order, and the last cursor. */
export async function readToEnd(
  fetch: EventPageFetch,
  options: { after?: string; limit?: number; types?: string } = {},
): Promise<{ events: ReadEvent[]; cursor: string }> {
  const events: ReadEvent[] = [];
  let after = options.after;
  for (;;) {
    const page = await readPage(fetch, { ...options, after });
    if (after !== undefined && page.items.length === 0 && page.nextCursor !== after) {
      throw new Error('an empty page must give back the cursor it was asked with');
    }
    after = page.nextCursor;
    if (page.items.length === 0) return { events, cursor: after };
    events.push(...page.items);
  }
}

/** The subject an event is about, by its type's family (§16): order, return, size or product. */
export function subjectOf(event: ReadEvent): string {
  const family = event.type.split('.')[0];
  if (family === 'return') return `return ${String(event.data.returnId)}`;
  if (family === 'stock') return `size ${String(event.data.sizeId)}`;
  if (family === 'product') return `product ${String(event.data.productId)}`;
  return `order ${String(event.data.orderId)}`;
}

/** Each subject's events in `events` have increasing sequences, from `sequence` 1 when `fromStart`. */
export function sequenceProblems(events: ReadEvent[], fromStart: boolean): string[] {
  const last = new Map<string, number>();
  const problems: string[] = [];
  for (const event of events) {
    const subject = subjectOf(event);
    const sequence = Number(event.data.sequence);
    const before = last.get(subject);
    const ok = before === undefined ? !fromStart || sequence === 1 : sequence === before + 1;
    if (!ok) problems.push(`${subject}: ${sequence} after ${before ?? 'nothing'}`);
    last.set(subject, sequence);
  }
  return problems;
}
