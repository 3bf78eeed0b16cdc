import type { components, operations } from './api-types';

type EventPage = components['schemas']['EventPageResponse'];
type ListQuery = NonNullable<operations['listEvents']['parameters']['query']>;
export type ApiEvent = EventPage['items'][number];

/** Where to go on after an event: the page's cursor and how many of that page's events are done. */
export interface EventPosition {
  after?: string;
  skip: number;
}

export interface EventIterateOptions {
  /** Only these types or `<family>.*` prefixes; every type the key reads by default. */
  types?: string[];
  /** A nextCursor kept from before: the events after it. */
  after?: string;
  /** With `after` from an event's `position`: that many of the page's events were handled already. */
  skip?: number;
  /** How long each read may wait for the next event (0–30, default 30). */
  waitSeconds?: number;
  /** Stops the iteration between reads. */
  signal?: AbortSignal;
}

/** An event and where to resume after it: keep `position` once the event is handled. */
export type IteratedEvent = ApiEvent & { position: EventPosition };

/**
 * The events API followed page by page (contract §16, §20): each event once, in order, with long
 * polls once caught up, so the loop costs nothing while the store is quiet. The service gives a
 * cursor after a page, not after each event; a page read again from its cursor holds the same
 * events in the same order (they are final once readable), so an event's position is its page's
 * cursor and its place in the page, and resuming from it repeats nothing and skips nothing.
 */
export async function* followEvents(
  list: (query: ListQuery) => Promise<EventPage>,
  options: EventIterateOptions,
): AsyncGenerator<IteratedEvent> {
  let after = options.after;
  let skip = options.skip ?? 0;
  const types = options.types?.length ? options.types.join(',') : undefined;
  while (!options.signal?.aborted) {
    const page = await list({ after, types, limit: 500, waitSeconds: options.waitSeconds ?? 30 });
    for (let i = skip; i < page.items.length; i++) {
      const last = i === page.items.length - 1;
      yield { ...page.items[i], position: last ? { after: page.nextCursor, skip: 0 } : { after, skip: i + 1 } };
    }
    after = page.nextCursor;
    skip = 0;
    // Without a wait the service answers an empty page at once: pause rather than ask again at once.
    if (page.items.length === 0 && (options.waitSeconds ?? 30) === 0)
      await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}
