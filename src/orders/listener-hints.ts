import { BoundedMap } from '../common/runtime/bounded-map';
const MAX_HINTS = 10_000;

/**
 * Which storefront statement to try first for a key or brand: the one without the `order.created`
 * parts unless its brand was last seen listening for that event. Only a guess: the statement
 * checks it and writes nothing when it is wrong, so a stale hint costs a round trip, never an
 * event, and nothing about the key (its validity, its brand) is kept.
 */
export class ListenerHints {
  private readonly listening = new BoundedMap<string, true>(MAX_HINTS);

  listens(hint: string): boolean {
    return this.listening.has(hint);
  }

  /** What a statement found: whether the brand behind `hint` listens for order.created. */
  saw(hint: string, listens: boolean): void {
    if (!listens) {
      this.listening.delete(hint);
      return;
    }
    this.listening.set(hint, true);
  }
}
