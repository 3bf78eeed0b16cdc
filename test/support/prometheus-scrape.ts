import { getMetricsFromIterator, type PromData, type PromHistogramData, type PromMetrics } from 'prom2javascript';

const NAN_SAMPLE = /^[a-zA-Z_:][a-zA-Z0-9_:]*(\{([a-zA-Z_][a-zA-Z0-9_]*="([^"\\\n]|\\["\\n])*",?)*\})? NaN$/;

/** One scrape of a metrics endpoint, read by a Prometheus text-format parser (not by our own code). */
export class Scrape {
  private constructor(
    readonly text: string,
    readonly metrics: PromMetrics,
  ) {}

  static async of(url: string): Promise<Scrape> {
    const response = await fetch(url);
    if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
    const contentType = response.headers.get('content-type') ?? '';
    if (!contentType.startsWith('text/plain; version=0.0.4')) throw new Error(`${url} is ${contentType}`);
    const text = await response.text();
    // The parser knows no NaN (what prom-client gives a gauge with nothing measured yet, such as the
    // event loop's mean lag between two close scrapes): such a line must be a well-formed sample,
    // and is left out of what the parser reads.
    const lines = text.split('\n').filter((line) => {
      if (!/ NaN$/.test(line)) return true;
      if (!NAN_SAMPLE.test(line)) throw new Error(`not a sample: ${line}`);
      return false;
    });
    return new Scrape(text, await getMetricsFromIterator(lines[Symbol.iterator]()));
  }

  /** Each metric family's name and type (`counter`, `gauge`, `histogram`, …). */
  types(): Record<string, string> {
    return Object.fromEntries(Object.entries(this.metrics).map(([name, metric]) => [name, metric.type]));
  }

  /** A gauge's or counter's value for exactly these labels; undefined when the series is absent. */
  value(name: string, labels: Record<string, string> = {}): number | undefined {
    return (this.series(name) as PromData[]).find((d) => sameLabels(d.labels, labels))?.value;
  }

  /** A histogram's series for exactly these labels, if it has one. */
  histogram(name: string, labels: Record<string, string>): PromHistogramData | undefined {
    return (this.series(name) as PromHistogramData[]).find((d) => sameLabels(d.labels, labels));
  }

  /** A histogram series' count; 0 when the series does not exist yet. */
  histogramCount(name: string, labels: Record<string, string>): number {
    return this.histogram(name, labels)?.count ?? 0;
  }

  /** Every label's value in every series. */
  labelValues(): string[] {
    return Object.values(this.metrics).flatMap((metric) =>
      (metric.data as Array<{ labels: Record<string, string> }>).flatMap((d) => Object.values(d.labels ?? {})),
    );
  }

  series(name: string): PromData[] | PromHistogramData[] {
    const metric = this.metrics[name];
    if (!metric) throw new Error(`no ${name} in the scrape`);
    return metric.data as PromData[] | PromHistogramData[];
  }
}

function sameLabels(a: Record<string, string> | undefined, b: Record<string, string>): boolean {
  const keys = Object.keys(a ?? {});
  return keys.length === Object.keys(b).length && keys.every((key) => a![key] === b[key]);
}
