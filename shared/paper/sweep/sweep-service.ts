/**
 * The sweep of open positions: stops, targets, trailing stops and liquidations, for the three
 * triggers (sweep.ts builds them; README.md says who runs each).
 *
 * - sweepCandles (candle): each closed 1-minute candle of a symbol, checked against its [low, high].
 *   The triggers are found through the per-symbol indexes (only the levels the range crossed are
 *   read, so the cost grows with what triggers, not with what is open), and the trailing positions
 *   whose high-water mark the candle improves are ratcheted.
 * - sweepLive (live): every symbol's live price, so a liquidation or a stop is not a minute late;
 *   the candle stays the truth for highs and lows in between.
 * - sweepBook (connected book): one book's open positions against live prices.
 *
 * A retried or duplicated candle changes nothing twice: settled positions are gone from the open
 * hash and the indexes, the scripts compare the position as read, and a trailing stop moved by a
 * candle is newer than that candle, so the candle is not checked against it again.
 */
import type { Clock } from '../../core/clock.js';
import type { Side } from '../../engine/side.js';
import { liveWindow, type PriceWindow } from '../../engine/triggers.js';
import type { MarketStore } from '../../market/market-store.js';
import { classifyQuote, type FreshnessRules, type PricePoint } from '../../market/quote-freshness.js';
import type { SweepJob } from '../../queues/job-types.js';
import type { FundingStore } from '../funding/funding-store.js';
import type { PositionStore } from '../positions/position-store.js';
import { parseTriggerMember, type BookRef } from '../positions/position-types.js';
import { addReports, emptyReport, SweepSettler, type SweepReport, type SweepTarget } from './sweep-settler.js';
import type { IndexRange, SweepStore } from './sweep-store.js';

export type { SweepReport } from './sweep-settler.js';

const MINUTE_MS = 60_000;
const SIDES: readonly Side[] = ['long', 'short'];

/** Latest prices of symbols, in the order asked (null where there is none). */
export type PriceReader = (symbols: readonly string[]) => Promise<(PricePoint | null)[]>;

export interface SweepDeps {
  store: PositionStore;
  index: SweepStore;
  funding: FundingStore;
  market: MarketStore;
  freshness: FreshnessRules;
  clock: Clock;
}

/** A symbol's prices to sweep against, and what its positions may do with them. */
interface SymbolWindow {
  symbol: string;
  window: PriceWindow;
  /** A closed candle (ratchets, and fires only the levels set before its minute), or a live price. */
  candle: boolean;
  fundingTo: number;
}

/**
 * The index ranges a window crosses, one per index of the symbol. Losing levels: a long's stop or
 * liquidation at or above the low (a short's at or below the high); targets: a long's at or below
 * the high (a short's at or above the low). Open-ended, so a level the price already passed is
 * found too. For a candle, the trailing positions whose mark the window improves (a long's below
 * the high); a live price asks the trail index for nothing.
 */
function rangesOf(symbol: string, w: PriceWindow, candle: boolean): IndexRange[] {
  const ranges: IndexRange[] = [];
  for (const side of SIDES) {
    const long = side === 'long';
    const losing = long ? { min: w.low, max: '+inf' } : { min: '-inf', max: w.high };
    const improving = !candle
      ? { min: '+inf', max: '-inf' }
      : long
        ? { min: '-inf', max: `(${w.high}` }
        : { min: `(${w.low}`, max: '+inf' };
    ranges.push({ symbol, side, kind: 'sl', ...losing }, { symbol, side, kind: 'liq', ...losing });
    ranges.push({ symbol, side, kind: 'tp', ...(long ? { min: '-inf', max: w.high } : { min: w.low, max: '+inf' }) });
    ranges.push({ symbol, side, kind: 'trail', ...improving });
  }
  return ranges;
}

export function candleWindow(c: SweepJob): PriceWindow {
  if (!(Number.isFinite(c.low) && Number.isFinite(c.high) && c.low <= c.high && c.low > 0)) {
    throw new Error(`sweep: candle ${c.symbol} ${c.minute} has no valid range (low ${c.low}, high ${c.high})`);
  }
  return { low: c.low, high: c.high, from: c.minute, to: c.minute + MINUTE_MS, open: c.open };
}

export class SweepService {
  private readonly settler: SweepSettler;

  constructor(private readonly deps: SweepDeps) {
    this.settler = new SweepSettler(deps);
  }

  /** Sweeps closed candles (any symbols); a symbol's candles are swept in minute order. `reqId`: the job's (BookRef.reqId). */
  async sweepCandles(candles: readonly SweepJob[], reqId?: string): Promise<SweepReport> {
    let left: SymbolWindow[] = candles.map((c) => ({
      symbol: c.symbol,
      window: candleWindow(c),
      candle: true,
      fundingTo: c.minute + MINUTE_MS - 1,
    }));
    left.sort((a, b) => a.window.from - b.window.from);
    let report = emptyReport();
    // one symbol's candles in successive rounds: a later minute is decided on what the earlier one left
    while (left.length > 0) {
      const symbols = new Set<string>();
      const round = new Set(left.filter((w) => !symbols.has(w.symbol) && symbols.add(w.symbol)));
      report = addReports(report, await this.sweepWindows([...round], reqId));
      left = left.filter((w) => !round.has(w));
    }
    return report;
  }

  /** Sweeps every symbol with a fresh live price (between candles). */
  async sweepLive(reqId?: string): Promise<SweepReport> {
    const symbols = (await this.deps.market.listSymbols()).map((entry) => entry.symbol);
    const live = await this.livePrices(symbols);
    return this.sweepWindows(
      [...live].map(([symbol, window]) => ({ symbol, window, candle: false, fundingTo: window.to })),
      reqId,
    );
  }

  /**
   * Sweeps one book's open positions against live prices (a connected book, on the stream's tick):
   * from `prices` (an API pod's latest ticks) when given, else the stored quotes.
   */
  async sweepBook(ref: BookRef, reqId?: string, prices?: PriceReader): Promise<SweepReport> {
    const open = await this.deps.store.listOpen(ref);
    if (open.length === 0) return emptyReport();
    const live = await this.livePrices(
      open.map((s) => s.position.symbol),
      prices,
    );
    const targets: SweepTarget[] = [];
    for (const read of open) {
      const window = live.get(read.position.symbol);
      if (window) targets.push({ ref, id: read.position.id, read, window, candle: false, fundingTo: window.to });
    }
    return this.settler.apply(targets, reqId);
  }

  /** Fresh aggregated prices as windows of one price at its time; symbols without one are left out. */
  private async livePrices(
    symbols: readonly string[],
    read: PriceReader = (unique) => this.deps.market.getQuotes(unique),
  ): Promise<Map<string, PriceWindow>> {
    const unique = [...new Set(symbols)];
    const quotes = await read(unique);
    const now = this.deps.clock.now();
    const out = new Map<string, PriceWindow>();
    unique.forEach((symbol, i) => {
      const state = classifyQuote(quotes[i] ?? null, now, this.deps.freshness);
      if (state.kind === 'fresh') out.set(symbol, liveWindow(state.quote.price, state.quote.ts));
    });
    return out;
  }

  /** One window per symbol: reads the crossed index ranges, then decides and settles each position once. */
  private async sweepWindows(windows: readonly SymbolWindow[], reqId: string | undefined): Promise<SweepReport> {
    const ranges = windows.map((w) => rangesOf(w.symbol, w.window, w.candle));
    const members = await this.deps.index.ranges(ranges);
    const targets: SweepTarget[] = [];
    windows.forEach((w, i) => {
      const seen = new Set<string>();
      const hints = { long: { symbol: w.symbol, side: 'long' as const }, short: { symbol: w.symbol, side: 'short' as const } };
      for (const [k, range] of ranges[i].entries()) {
        for (const member of members[i][k]) {
          if (seen.has(member)) continue;
          seen.add(member);
          const named = parseTriggerMember(member);
          if (named)
            targets.push({
              ref: named.ref,
              id: named.id,
              window: w.window,
              candle: w.candle,
              fundingTo: w.fundingTo,
              hint: hints[range.side],
            });
        }
      }
    });
    return this.settler.apply(targets, reqId);
  }
}
