/**
 * A strict reader of the Prometheus text exposition format (version 0.0.4): every line must be
 * a comment (HELP and TYPE well-formed) or a sample of a family whose TYPE came first; anything
 * else throws, naming the line. Tests read scraped values through it, so a malformed line fails them.
 */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Exposition {
  types: Map<string, string>;
  samples: Sample[];
}

const NAME = '[a-zA-Z_:][a-zA-Z0-9_:]*';
const LABEL = '[a-zA-Z_][a-zA-Z0-9_]*';
// Prometheus reads values with Go's ParseFloat, which takes NaN and Inf in any case: prom-client
// writes an empty event-loop histogram's mean as `Nan`.
const VALUE = '(?:[+-]?[Ii][Nn][Ff]|[Nn][Aa][Nn]|[+-]?(?:\\d+\\.?\\d*|\\.\\d+)(?:[eE][+-]?\\d+)?)';
const LABEL_VALUE = '"(?:[^"\\\\\\n]|\\\\[\\\\"n])*"';
const HELP_LINE = new RegExp(`^# HELP (${NAME}) (.*)$`);
const TYPE_LINE = new RegExp(`^# TYPE (${NAME}) (counter|gauge|histogram|summary|untyped)$`);
const SAMPLE_LINE = new RegExp(
  `^(${NAME})(?:\\{((?:${LABEL}=${LABEL_VALUE})(?:,${LABEL}=${LABEL_VALUE})*,?)?\\})? (${VALUE})(?: -?\\d+)?$`,
);
const LABEL_PAIR = new RegExp(`(${LABEL})=(${LABEL_VALUE})`, 'g');

/** The family a sample belongs to: a histogram's _bucket, _sum and _count are its own. */
function familyOf(name: string, types: Map<string, string>): string | undefined {
  if (types.has(name)) return name;
  for (const suffix of ['_bucket', '_sum', '_count', '_created']) {
    const base = name.endsWith(suffix) ? name.slice(0, -suffix.length) : null;
    if (base && ['histogram', 'summary'].includes(types.get(base) ?? '')) return base;
  }
  return undefined;
}

export function parseExposition(text: string): Exposition {
  const types = new Map<string, string>();
  const samples: Sample[] = [];
  if (!text.endsWith('\n')) throw new Error('the exposition must end with a line feed');
  const lines = text.slice(0, -1).split('\n');
  lines.forEach((line, index) => {
    const where = `line ${index + 1}: ${JSON.stringify(line)}`;
    if (line === '') return;
    if (line.startsWith('#')) {
      const type = TYPE_LINE.exec(line);
      if (type) {
        if (types.has(type[1]!)) throw new Error(`second TYPE for ${type[1]} at ${where}`);
        types.set(type[1]!, type[2]!);
        return;
      }
      // Any other comment is allowed, but one that says HELP or TYPE must say it rightly.
      if (HELP_LINE.test(line) || !/^# (HELP|TYPE) /.test(line)) return;
      throw new Error(`malformed ${line.slice(2, 6)} comment at ${where}`);
    }
    const sample = SAMPLE_LINE.exec(line);
    if (!sample) throw new Error(`not a sample line at ${where}`);
    const name = sample[1]!;
    if (!familyOf(name, types)) throw new Error(`sample before its TYPE at ${where}`);
    const labels: Record<string, string> = {};
    for (const [, label, quoted] of (sample[2] ?? '').matchAll(LABEL_PAIR)) {
      if (label! in labels) throw new Error(`label ${label} twice at ${where}`);
      labels[label!] = JSON.parse(quoted!) as string;
    }
    const raw = sample[3]!;
    const value = raw.endsWith('Inf') ? (raw.startsWith('-') ? -Infinity : Infinity) : Number(raw);
    samples.push({ name, labels, value });
  });
  return { types, samples };
}

/** The value of the one sample with this name and (at least) these labels. */
export function valueOf(
  exposition: Exposition,
  name: string,
  labels: Record<string, string> = {},
): number | undefined {
  const found = exposition.samples.filter(
    (s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v),
  );
  if (found.length > 1) throw new Error(`${found.length} samples of ${name} match`);
  return found[0]?.value;
}
