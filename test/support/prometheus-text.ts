// A strict reader of the Prometheus text exposition format (0.0.4), so tests can prove /metrics
// parses, rather than only that it contains some lines.

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Family {
  name: string;
  help: string;
  type: 'counter' | 'gauge' | 'histogram' | 'summary' | 'untyped';
  samples: Sample[];
}

const NAME = '[a-zA-Z_:][a-zA-Z0-9_:]*';
const LABEL = '[a-zA-Z_][a-zA-Z0-9_]*';
const LABEL_PAIR = new RegExp(`^(${LABEL})="((?:[^"\\\\\\n]|\\\\[\\\\"n])*)"`);
const SAMPLE = new RegExp(`^(${NAME})(\\{.*\\})? (\\S+)(?: -?\\d+)?$`);
const SUFFIXES: Record<Family['type'], readonly string[]> = {
  counter: [''],
  gauge: [''],
  untyped: [''],
  histogram: ['_bucket', '_sum', '_count'],
  summary: ['', '_sum', '_count'],
};

/** Parses the whole text or throws, naming the line that breaks the format. */
export function parsePrometheusText(text: string): Map<string, Family> {
  if (text !== '' && !text.endsWith('\n')) throw new Error('the text does not end with a newline');
  const families = new Map<string, Family>();
  const lines = text.split('\n').slice(0, -1);
  lines.forEach((line, index) => {
    const fail = (why: string) => new Error(`line ${index + 1} (${JSON.stringify(line)}): ${why}`);
    const help = new RegExp(`^# HELP (${NAME}) (.*)$`).exec(line);
    const type = new RegExp(`^# TYPE (${NAME}) (counter|gauge|histogram|summary|untyped)$`).exec(line);
    if (line === '') return; // the format allows blank lines
    if (help) {
      if (families.has(help[1]!)) throw fail('a second HELP for one family');
      families.set(help[1]!, { name: help[1]!, help: help[2]!, type: 'untyped', samples: [] });
    } else if (type) {
      const family = families.get(type[1]!);
      if (!family || family.samples.length > 0) throw fail('TYPE must follow HELP and come before samples');
      family.type = type[2] as Family['type'];
    } else if (line.startsWith('#')) {
      throw fail('an unknown comment');
    } else {
      const sample = SAMPLE.exec(line);
      if (!sample) throw fail('not a sample line');
      const [, name, labelText, valueText] = sample;
      const family = [...families.values()].find((f) =>
        SUFFIXES[f.type].some((suffix) => `${f.name}${suffix}` === name),
      );
      if (!family) throw fail(`a sample of no declared family: ${name}`);
      const value = parseValue(valueText!);
      if (value === undefined) throw fail(`not a number: ${valueText}`);
      family.samples.push({ name: name!, labels: parseLabels(labelText ?? '', fail), value });
    }
  });
  return families;
}

function parseLabels(text: string, fail: (why: string) => Error): Record<string, string> {
  const labels: Record<string, string> = {};
  if (text === '') return labels;
  let rest = text.slice(1, -1);
  while (rest !== '') {
    const pair = LABEL_PAIR.exec(rest);
    if (!pair) throw fail(`bad labels: ${text}`);
    if (pair[1]! in labels) throw fail(`a label twice: ${pair[1]}`);
    labels[pair[1]!] = pair[2]!.replace(/\\(["\\n])/g, (_, c: string) => (c === 'n' ? '\n' : c));
    rest = rest.slice(pair[0].length);
    if (rest.startsWith(',')) rest = rest.slice(1);
    else if (rest !== '') throw fail(`bad labels: ${text}`);
  }
  return labels;
}

/** Prometheus reads values with Go's ParseFloat, which takes NaN and Inf in any case (prom-client writes "Nan"). */
function parseValue(text: string): number | undefined {
  if (/^nan$/i.test(text)) return NaN;
  const inf = /^([+-]?)inf$/i.exec(text);
  if (inf) return inf[1] === '-' ? -Infinity : Infinity;
  const value = Number(text);
  return text.trim() === '' || Number.isNaN(value) ? undefined : value;
}
