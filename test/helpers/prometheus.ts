import { strict as assert } from 'node:assert';
import parsePrometheusTextFormat, { type PrometheusFamily, type PrometheusSample } from 'parse-prometheus-text-format';

/**
 * Prometheus text parsed by parse-prometheus-text-format. Its histograms keep neither labels nor
 * counts when their series have labels other than `le` (it folds a family into one unlabeled
 * sample), so histogram families are read as untyped: each of their series (<name>_bucket,
 * <name>_count, <name>_sum) is then a family of its own, with its labels and values.
 */
export function parseMetrics(text: string): PrometheusFamily[] {
  const parsed = parsePrometheusTextFormat(text.replace(/^(# TYPE \S+) histogram$/gm, '$1 untyped'));
  // a histogram's series come label set by label set (buckets, sum, count, then the next set): one family per name
  const byName = new Map<string, PrometheusFamily>();
  for (const family of parsed) {
    const seen = byName.get(family.name);
    if (seen) seen.metrics.push(...family.metrics);
    else byName.set(family.name, family);
  }
  return [...byName.values()];
}

/** GET a /metrics URL with these headers and parse it; it must answer 200 in the text format. */
export async function scrapeMetrics(url: string, headers: Record<string, string>): Promise<PrometheusFamily[]> {
  const response = await fetch(url, { headers });
  const text = await response.text();
  assert.equal(response.status, 200, text);
  assert.match(response.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
  return parseMetrics(text);
}

export function metricFamily(families: PrometheusFamily[], name: string): PrometheusFamily {
  const found = families.find((f) => f.name === name);
  assert.ok(found, `${name} is exposed`);
  return found;
}

const matches = (sample: PrometheusSample, labels: Record<string, string>): boolean =>
  Object.entries(labels).every(([name, value]) => sample.labels?.[name] === value);

/** The value of the series with these labels (a histogram's count is its <name>_count series); undefined before it has one. */
export function metricValue(families: PrometheusFamily[], name: string, labels: Record<string, string> = {}): number | undefined {
  const sample = families.find((f) => f.name === name)?.metrics.find((m) => matches(m, labels));
  return sample ? Number(sample.value) : undefined;
}

/** Every label value of every series. */
export function labelValues(families: PrometheusFamily[]): string[] {
  return families.flatMap((f) => f.metrics.flatMap((m) => Object.values(m.labels ?? {})));
}
