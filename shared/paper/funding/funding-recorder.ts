/**
 * Records the funding of the funding time just passed (00, 08, 16 UTC) for every followed symbol:
 * the rate and mark price Binance's premiumIndex reports (the simulated exchange serves the same
 * endpoint). Until the derivatives feed records rates itself, this is where funding comes from.
 */
import type { Clock } from '../../core/clock.js';
import type { Logger } from '../../core/logger.js';
import { lastFundingTime } from '../../engine/funding.js';
import { getJson, type HttpSettings } from '../../http/http-json.js';
import type { FundingStore } from './funding-store.js';
import { parsePremiumIndex } from './premium-index.js';

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
  time: number;
  recorded: number;
  /** Symbols that already had this funding time recorded. */
  kept: number;
}

export async function recordFunding(deps: FundingRecorderDeps): Promise<FundingRunResult> {
  const time = lastFundingTime(deps.clock.now());
  const [wanted, body] = await Promise.all([deps.symbols(), getJson(`${deps.binanceRest}/fapi/v1/premiumIndex`, deps.http)]);
  const universe = new Set(wanted);
  const rows = parsePremiumIndex(body).filter((row) => universe.has(row.symbol));
  const added = await Promise.all(rows.map((row) => deps.funding.record(row.symbol, time, row.rate, row.mark)));
  const recorded = added.filter(Boolean).length;
  const kept = added.length - recorded;
  deps.logger.info({ time: new Date(time).toISOString(), recorded, kept }, 'funding recorded');
  return { time, recorded, kept };
}
