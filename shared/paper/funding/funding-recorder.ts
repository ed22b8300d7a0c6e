/**
 * Records the funding that settled for every followed symbol at its own funding times (8 h, 4 h or
 * 1 h schedules), from Binance's funding history (the simulated exchange serves the same endpoint).
 * Each run reads from a little before the previous run ended, so a row the venue publishes late, or
 * a run that was missed (a worker down over a funding time), is caught up on the next run; a time
 * already recorded is kept, so reading it again changes nothing.
 */
import type { Clock } from '../../core/clock.js';
import type { Logger } from '../../core/logger.js';
import { getJson, withQuery, type HttpSettings } from '../../http/http-json.js';
import type { FundingStore } from './funding-store.js';
import { parseFundingHistory } from './funding-history.js';

const HOUR_MS = 3_600_000;
/** Each run reads back this far before the previous run's end (late rows). */
const OVERLAP_MS = 2 * HOUR_MS;
/** And never further back than this (a first run, or a long outage). */
export const MAX_CATCH_UP_MS = 7 * 24 * HOUR_MS;
/** The venue's largest page. */
const PAGE = 1000;

export interface FundingRecorderDeps {
  funding: FundingStore;
  /** Binance USDⓈ-M REST origin (live host or `${SIM_URL}/binance`). */
  binanceRest: string;
  /** The symbols to record (the universe); others in the answer are ignored. */
  symbols(): Promise<string[]>;
  clock: Clock;
  logger: Logger;
  http: HttpSettings;
}

export interface FundingRunResult {
  /** The span read, ms. */
  from: number;
  to: number;
  recorded: number;
  /** Funding times already recorded. */
  kept: number;
}

export async function recordFunding(deps: FundingRecorderDeps): Promise<FundingRunResult> {
  const to = deps.clock.now();
  const until = await deps.funding.recordedUntil();
  const from = Math.max(to - MAX_CATCH_UP_MS, (until ?? 0) - OVERLAP_MS);
  const universe = new Set(await deps.symbols());
  let recorded = 0;
  let kept = 0;
  for (let start = from; start <= to;) {
    const body = await getJson(
      withQuery(deps.binanceRest, '/fapi/v1/fundingRate', { startTime: start, endTime: to, limit: PAGE }),
      deps.http,
    );
    const rows = parseFundingHistory(body);
    const added = await Promise.all(
      rows.filter((row) => universe.has(row.symbol)).map((row) => deps.funding.record(row.symbol, row.time, row.rate, row.mark)),
    );
    recorded += added.filter(Boolean).length;
    kept += added.filter((a) => !a).length;
    if (!Array.isArray(body) || body.length < PAGE || rows.length === 0) break;
    // the next page starts at the last time read (rows of that time may continue there)
    const last = Math.max(...rows.map((row) => row.time));
    start = last > start ? last : start + 1;
  }
  await deps.funding.setRecordedUntil(to);
  deps.logger.info({ from: new Date(from).toISOString(), recorded, kept }, 'funding recorded');
  return { from, to, recorded, kept };
}
