// parse-prometheus-text-format ships no types: the one function it exports, with the shapes it answers (prom2json's).
declare module 'parse-prometheus-text-format' {
  export interface PrometheusSample {
    labels?: Record<string, string>;
    /** Counters, gauges and untyped samples. */
    value?: string;
    /** Histograms: upper bound -> cumulative count, and the totals. */
    buckets?: Record<string, string>;
    count?: string;
    sum?: string;
  }
  export interface PrometheusFamily {
    name: string;
    help: string;
    type: 'COUNTER' | 'GAUGE' | 'HISTOGRAM' | 'SUMMARY' | 'UNTYPED';
    metrics: PrometheusSample[];
  }
  function parsePrometheusTextFormat(text: string): PrometheusFamily[];
  export default parsePrometheusTextFormat;
}
