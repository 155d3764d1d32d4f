/*
 * Counters, gauges and histograms kept in memory, and the Prometheus text exposition format 0.0.4
 * written by hand (https://prometheus.io/docs/instrumenting/exposition_formats/). Updates are O(1):
 * one Map lookup by the joined label values, plus a walk over a fixed, short bucket list.
 */

export const CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

export interface Sample {
  /** The family name, or the family name with a suffix (`_bucket`, `_sum`, `_count`). */
  name: string;
  labels: Readonly<Record<string, string>>;
  value: number;
}

export interface MetricFamily {
  name: string;
  help: string;
  type: 'counter' | 'gauge' | 'histogram';
  samples: Sample[];
}

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

function checkNames(name: string, labelNames: readonly string[]): void {
  if (!METRIC_NAME.test(name)) throw new Error(`invalid metric name: ${name}`);
  for (const label of labelNames) {
    if (!LABEL_NAME.test(label) || label.startsWith('__')) throw new Error(`invalid label name on ${name}: ${label}`);
  }
}

/** Label values in declaration order, joined: the series key. NUL cannot occur in a label value here. */
function seriesKey<L extends string>(labelNames: readonly L[], labels: Readonly<Record<L, string>>): string {
  return labelNames.map((name) => labels[name]).join('\u0000');
}

export class Counter<L extends string = never> {
  private readonly series = new Map<string, { labels: Readonly<Record<L, string>>; value: number }>();

  constructor(
    readonly name: string,
    readonly help: string,
    readonly labelNames: readonly L[] = [],
  ) {
    checkNames(name, labelNames);
  }

  inc(labels: Readonly<Record<L, string>>, by = 1): void {
    if (!(by >= 0)) throw new Error(`${this.name}: a counter only goes up`);
    const key = seriesKey(this.labelNames, labels);
    const entry = this.series.get(key);
    if (entry) entry.value += by;
    else this.series.set(key, { labels: { ...labels }, value: by });
  }

  collect(): MetricFamily {
    const samples = [...this.series.values()].map(({ labels, value }) => ({ name: this.name, labels, value }));
    return { name: this.name, help: this.help, type: 'counter', samples };
  }
}

export class Histogram<L extends string = never> {
  readonly buckets: readonly number[];
  private readonly series = new Map<
    string,
    { labels: Readonly<Record<L, string>>; counts: number[]; sum: number; count: number }
  >();

  constructor(
    readonly name: string,
    readonly help: string,
    buckets: readonly number[],
    readonly labelNames: readonly L[] = [],
  ) {
    checkNames(name, [...labelNames, 'le']);
    if ((labelNames as readonly string[]).includes('le')) throw new Error(`${name}: "le" is reserved for buckets`);
    const sorted = [...buckets].sort((a, b) => a - b);
    if (sorted.length === 0 || sorted.some((b, i) => !Number.isFinite(b) || (i > 0 && b === sorted[i - 1]))) {
      throw new Error(`${name}: buckets must be distinct finite numbers`);
    }
    this.buckets = sorted;
  }

  observe(labels: Readonly<Record<L, string>>, value: number): void {
    if (Number.isNaN(value)) return;
    const key = seriesKey(this.labelNames, labels);
    let entry = this.series.get(key);
    if (!entry) {
      // One slot per bucket and one for +Inf; made cumulative only when rendered.
      entry = { labels: { ...labels }, counts: new Array<number>(this.buckets.length + 1).fill(0), sum: 0, count: 0 };
      this.series.set(key, entry);
    }
    let slot = 0;
    while (slot < this.buckets.length && value > this.buckets[slot]!) slot++;
    entry.counts[slot]! += 1;
    entry.sum += value;
    entry.count += 1;
  }

  collect(): MetricFamily {
    const samples: Sample[] = [];
    for (const { labels, counts, sum, count } of this.series.values()) {
      let cumulative = 0;
      this.buckets.forEach((bound, i) => {
        cumulative += counts[i]!;
        samples.push({ name: `${this.name}_bucket`, labels: { ...labels, le: formatValue(bound) }, value: cumulative });
      });
      samples.push({ name: `${this.name}_bucket`, labels: { ...labels, le: '+Inf' }, value: count });
      samples.push({ name: `${this.name}_sum`, labels, value: sum });
      samples.push({ name: `${this.name}_count`, labels, value: count });
    }
    return { name: this.name, help: this.help, type: 'histogram', samples };
  }
}

/** A gauge read when scraped; a value of undefined leaves the sample out (unknown, not zero). */
export function gauge(name: string, help: string, value: number | undefined): MetricFamily {
  checkNames(name, []);
  return { name, help, type: 'gauge', samples: value === undefined ? [] : [{ name, labels: {}, value }] };
}

/** Label values escape backslash, double quote and line feed. */
export function escapeLabelValue(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}

/** HELP text escapes backslash and line feed (quotes stay as they are). */
export function escapeHelp(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');
}

export function formatValue(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Infinity) return '+Inf';
  if (value === -Infinity) return '-Inf';
  return String(value);
}

function formatLabels(labels: Readonly<Record<string, string>>): string {
  const pairs = Object.entries(labels).map(([name, value]) => `${name}="${escapeLabelValue(value)}"`);
  return pairs.length === 0 ? '' : `{${pairs.join(',')}}`;
}

/** The exposition text: for each family its HELP and TYPE lines, then its samples; ends in a newline. */
export function render(families: readonly MetricFamily[]): string {
  const lines: string[] = [];
  for (const family of families) {
    lines.push(`# HELP ${family.name} ${escapeHelp(family.help)}`, `# TYPE ${family.name} ${family.type}`);
    for (const sample of family.samples)
      lines.push(`${sample.name}${formatLabels(sample.labels)} ${formatValue(sample.value)}`);
  }
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
}
