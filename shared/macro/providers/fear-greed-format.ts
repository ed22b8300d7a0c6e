/** alternative.me /fng/ bodies: every value is a string, timestamps in seconds. Pure. */
import { isRecord, toNumber, toStr } from '../../market/parse-utils.js';
import { ProviderFormatError } from '../../http/provider-http.js';

export interface FearGreedPoint {
  /** 0..100 */
  value: number;
  classification: string;
  /** Day of the reading, ms. */
  ts: number;
}

/** Newest first; throws ProviderFormatError when no reading can be read. */
export function parseFearGreed(body: unknown): FearGreedPoint[] {
  const rows = isRecord(body) && Array.isArray(body.data) ? body.data : [];
  const points: FearGreedPoint[] = [];
  for (const row of rows) {
    if (!isRecord(row)) continue;
    const value = toNumber(row.value);
    const seconds = toNumber(row.timestamp);
    const classification = toStr(row.value_classification);
    if (value === undefined || value < 0 || value > 100 || seconds === undefined || !classification) continue;
    points.push({ value, classification, ts: seconds * 1000 });
  }
  if (points.length === 0) throw new ProviderFormatError('alternative.me: no fear and greed reading in the answer');
  return points.sort((a, b) => b.ts - a.ts);
}
