import type { Metric, Registry } from 'prom-client';

/** What waits in a work table: pending and failed rows and the oldest pending one's age. */
export interface Backlog {
  pending: number;
  failed: number;
  oldestPendingAgeSeconds: number;
}

interface Sample {
  labels: Record<string, string>;
  value: number;
}

/**
 * A gauge read from the database at scrape time. Every instance reads the same rows, so under the
 * cluster the workers' figures are one figure: their largest is taken, never their sum. When the
 * read fails the series is left out of that scrape rather than shown as zero.
 */
class DatabaseGauge {
  readonly type = 'gauge';
  readonly aggregator = 'max';

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly samples: () => Promise<Sample[]>,
  ) {}

  async get(): Promise<{ name: string; help: string; type: string; aggregator: string; values: Sample[] }> {
    return {
      name: this.name,
      help: this.help,
      type: this.type,
      aggregator: this.aggregator,
      values: await this.samples(),
    };
  }
}

/** One read of a backlog per scrape, however many of its series ask for it. */
function oncePerScrape(read: () => Promise<Backlog>, failed: (error: Error) => void): () => Promise<Backlog | null> {
  let reading: Promise<Backlog | null> | undefined;
  return () => {
    if (!reading) {
      const current = read().catch((error: Error) => {
        failed(error);
        return null;
      });
      reading = current.finally(() => (reading = undefined));
    }
    return reading;
  };
}

/** A gauge of its own read from the database at scrape time; left out of a scrape whose read fails. */
export function registerDatabaseGauge(
  registry: Registry,
  series: { name: string; help: string },
  read: () => Promise<Sample[]>,
  failed: (error: Error) => void,
): void {
  const gauge = new DatabaseGauge(series.name, series.help, () =>
    read().catch((error: Error) => {
      failed(error);
      return [];
    }),
  );
  registry.registerMetric(gauge as unknown as Metric);
}

export interface BacklogSeries {
  count: { name: string; help: string; label: string };
  age: { name: string; help: string };
}

/** A count by `label` (pending, failed) and the oldest pending one's age, from one read a scrape. */
export function registerBacklogGauges(
  registry: Registry,
  series: BacklogSeries,
  read: () => Promise<Backlog>,
  failed: (error: Error) => void,
): void {
  const backlog = oncePerScrape(read, failed);
  const { count, age } = series;
  const gauges = [
    new DatabaseGauge(count.name, count.help, async () => {
      const b = await backlog();
      if (!b) return [];
      return [
        { labels: { [count.label]: 'pending' }, value: b.pending },
        { labels: { [count.label]: 'failed' }, value: b.failed },
      ];
    }),
    new DatabaseGauge(age.name, age.help, async () => {
      const b = await backlog();
      return b ? [{ labels: {}, value: b.oldestPendingAgeSeconds }] : [];
    }),
  ];
  for (const gauge of gauges) registry.registerMetric(gauge as unknown as Metric);
}
