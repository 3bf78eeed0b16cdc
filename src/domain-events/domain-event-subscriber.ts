/**
 * A module that acts on domain events (the outbound webhooks, contract §10) without the events'
 * owners knowing it: it adds its writes to the statement that records an event, so
 * they commit with the change or not at all, and hears when such a statement has committed.
 * Arguments and results are SQL of the recording statement.
 */
export interface DomainEventSubscriber {
  /** True when the brand has something subscribed to events of one of `types` (SQL text expressions). */
  wants: (brandId: string, types: readonly string[]) => string;
  /**
   * CTEs after `events` (a CTE of rows id, brand_id, type, data, occurred_at: every event the
   * statement records, maybe several) writing the subscriber's work; their names start with a
   * prefix of the subscriber's own.
   */
  ctes: (events: string) => string;
  /** After `ctes`: how many units of work the statement wrote (an int). */
  written: string;
  /** A statement that wrote work of some subscriber has committed; cheap, and harmless when it wrote none of this one's. */
  committed: () => void;
}
