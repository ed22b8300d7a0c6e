/**
 * The regional quotes as /api/latam/ar and /api/latam/br answer them: plain JSON with ok and ts,
 * never an error because a provider is down. fresh -> (a source fails) -> stale with the last known
 * quote -> (it answers again) -> fresh. Before the first quote: stale, no venues.
 */
import type { Clock } from '../core/clock.js';
import { classifySnapshot } from '../snapshots/snapshot-state.js';
import { LATAM_MAX_AGE_MS } from './latam-refresher.js';
import type { ArQuote, BrQuote } from './latam-quotes.js';
import type { LatamStore, HistoryPoint, Region } from './latam-store.js';

export interface LatamEnvelope {
  ok: true;
  /** Response time, ms. */
  ts: number;
  /** When the quote was built, ms; null before the first one. */
  updatedAt: number | null;
  stale: boolean;
  /** Sources failing at the last refresh. */
  sourcesDown: string[];
  hist: HistoryPoint[];
}

export type ArResponse = LatamEnvelope & ArQuote;
export type BrResponse = LatamEnvelope & BrQuote;

const EMPTY_AR: ArQuote = { n: 0, mid: null, bestBuy: null, bestSell: null, rows: [], dropped: [], dolar: null, brecha: null };
const EMPTY_BR: BrQuote = {
  n: 0,
  btcMid: null,
  usdtMid: null,
  btcUsd: null,
  usdbrl: null,
  usdbrlSource: null,
  fair: null,
  agioMid: null,
  usdtAgioMid: null,
  bestBuy: { btc: null, usdt: null },
  bestSell: { btc: null, usdt: null },
  btc: [],
  usdt: [],
  dropped: { btc: [], usdt: [] },
};

/**
 * A Brazilian history point as served: points kept before the history skipped quotes without a
 * BTC/USD price are left out, and points kept before btc was written get it from btcMid.
 */
function brHistoryRow(point: HistoryPoint): HistoryPoint[] {
  if (point.btcUsd === null || point.btcUsd === undefined) return [];
  return [point.btc === undefined ? { ...point, btc: point.btcMid ?? null } : point];
}

export class LatamService {
  constructor(
    private readonly store: LatamStore,
    private readonly clock: Clock,
  ) {}

  ar(): Promise<ArResponse> {
    return this.read<ArQuote>('ar', EMPTY_AR);
  }

  async br(): Promise<BrResponse> {
    const response = await this.read<BrQuote>('br', EMPTY_BR);
    return { ...response, hist: response.hist.flatMap(brHistoryRow) };
  }

  private async read<Q extends object>(region: Region, empty: Q): Promise<LatamEnvelope & Q> {
    const now = this.clock.now();
    const [snapshot, hist] = await Promise.all([this.store.readQuote<Q>(region), this.store.readHistory(region, now)]);
    const state = classifySnapshot(snapshot, now, LATAM_MAX_AGE_MS);
    if (state.kind === 'none') {
      return { ok: true, ts: now, updatedAt: null, stale: true, sourcesDown: [], ...empty, hist };
    }
    const { quote, sourcesDown } = state.data;
    const stale = state.kind === 'stale' || sourcesDown.length > 0;
    return { ok: true, ts: now, updatedAt: state.fetchedAt, stale, sourcesDown, ...quote, hist };
  }
}
