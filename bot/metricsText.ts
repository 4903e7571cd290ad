/**
 * Counters, gauges and histograms in the Prometheus text exposition format (0.0.4), written as
 * prom-client writes them (same line shapes, escaping and number format), without loading it:
 * Exhale's own metrics are counted from the start in these, and prom-client is loaded only for
 * the process metrics on the first scrape (`./metrics.ts`). Series are kept per label values in
 * first-seen order; label names are fixed per metric, so memory is bounded by the label values.
 */

/** What a scrape answers with (prom-client's `Registry.PROMETHEUS_CONTENT_TYPE`). */
export const PROMETHEUS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

type Labels<L extends string> = Readonly<Record<L, string>>;

function escapeText(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');
}

function formatValue(value: number): string {
  if (Number.isNaN(value)) return 'Nan'; // sic: prom-client's spelling
  if (!Number.isFinite(value)) return value < 0 ? '-Inf' : '+Inf';
  return `${value}`;
}

function formatLabels(pairs: ReadonlyArray<readonly [string, string]>): string {
  if (pairs.length === 0) return '';
  return `{${pairs.map(([k, v]) => `${k}="${escapeText(v).replace(/"/g, '\\"')}"`).join(',')}}`;
}

abstract class Family<L extends string> {
  constructor(
    readonly name: string,
    readonly help: string,
    readonly labelNames: readonly L[],
    private readonly type: 'counter' | 'gauge' | 'histogram',
  ) {}

  protected key(labels: Labels<L>): string {
    return this.labelNames.map((n) => labels[n]).join('\u0000');
  }

  protected pairs(labels: Labels<L>): Array<[string, string]> {
    return this.labelNames.map((n) => [n, labels[n]]);
  }

  protected abstract lines(): string[];

  render(): string {
    const name = escapeText(this.name);
    return [
      `# HELP ${name} ${escapeText(this.help)}`,
      `# TYPE ${name} ${this.type}`,
      ...this.lines(),
    ].join('\n');
  }
}

class ValueFamily<L extends string> extends Family<L> {
  private readonly series = new Map<string, { labels: Labels<L>; value: number }>();

  protected add(labels: Labels<L>, by: number, replace: boolean): void {
    const key = this.key(labels);
    const found = this.series.get(key);
    if (found) found.value = replace ? by : found.value + by;
    else this.series.set(key, { labels: { ...labels }, value: by });
  }

  reset(): void {
    this.series.clear();
  }

  protected lines(): string[] {
    return [...this.series.values()].map(
      (s) => `${this.name}${formatLabels(this.pairs(s.labels))} ${formatValue(s.value)}`,
    );
  }
}

export class Counter<L extends string> extends ValueFamily<L> {
  constructor(name: string, help: string, labelNames: readonly L[]) {
    super(name, help, labelNames, 'counter');
  }

  inc(labels: Labels<L>, by = 1): void {
    this.add(labels, by, false);
  }
}

export class Gauge<L extends string> extends ValueFamily<L> {
  constructor(name: string, help: string, labelNames: readonly L[]) {
    super(name, help, labelNames, 'gauge');
  }

  set(labels: Labels<L>, value: number): void {
    this.add(labels, value, true);
  }
}

export class Histogram<L extends string> extends Family<L> {
  private readonly series = new Map<
    string,
    { labels: Labels<L>; counts: number[]; sum: number; count: number }
  >();

  constructor(
    name: string,
    help: string,
    labelNames: readonly L[],
    private readonly buckets: readonly number[],
  ) {
    super(name, help, labelNames, 'histogram');
  }

  observe(labels: Labels<L>, value: number): void {
    const key = this.key(labels);
    let s = this.series.get(key);
    if (!s) {
      s = { labels: { ...labels }, counts: this.buckets.map(() => 0), sum: 0, count: 0 };
      this.series.set(key, s);
    }
    // Counts per bucket, made cumulative when rendered (as prom-client keeps them).
    const at = this.buckets.findIndex((bound) => value <= bound);
    if (at >= 0) s.counts[at] = (s.counts[at] ?? 0) + 1;
    s.sum += value;
    s.count += 1;
  }

  protected lines(): string[] {
    const out: string[] = [];
    for (const s of this.series.values()) {
      const pairs = this.pairs(s.labels);
      let cumulative = 0;
      this.buckets.forEach((bound, i) => {
        cumulative += s.counts[i] ?? 0;
        out.push(
          `${this.name}_bucket${formatLabels([['le', `${bound}`], ...pairs])} ${cumulative}`,
        );
      });
      out.push(`${this.name}_bucket${formatLabels([['le', '+Inf'], ...pairs])} ${s.count}`);
      out.push(`${this.name}_sum${formatLabels(pairs)} ${formatValue(s.sum)}`);
      out.push(`${this.name}_count${formatLabels(pairs)} ${s.count}`);
    }
    return out;
  }
}

/** Metrics rendered as one exposition, in the order given (as a prom-client registry does). */
export function renderMetrics(families: ReadonlyArray<{ render(): string }>): string {
  return `${families.map((f) => f.render()).join('\n\n')}\n`;
}
