/**
 * A replay journal's trading services: the ordinary position services (open, close, close_all,
 * sltp, positions, trades, account, balance) over the journal's store, priced at the replay's cursor
 * and timed by it. Built per request from the replay as read then: the cursor does not move under a
 * request. Limit and stop entries are refused (replay_market_only); a symbol other than the
 * replay's is refused (replay_symbol_only).
 */
import type { Clock } from '../../core/clock.js';
import { AppError } from '../../core/errors.js';
import { canonicalSymbol, baseOf } from '../../market/canonical-symbol.js';
import type { MarketStore } from '../../market/market-store.js';
import type { FreshnessRules, Mark } from '../../market/quote-freshness.js';
import type { DepthStore } from '../../market/depth-store.js';
import type { SimSettings } from '../sim/sim-settings.js';
import type { ChangeGate } from '../change-gate.js';
import type { FeeSettings } from '../fees/fee-settings.js';
import type { FundingStore } from '../funding/funding-store.js';
import type { KeyContext } from '../key-context.js';
import { LivePrices, type LivePrice } from '../markets/live-prices.js';
import { CloseService } from '../positions/close-service.js';
import type { PositionDeps } from '../positions/position-deps.js';
import { PositionReads } from '../positions/position-reads.js';
import { PositionService, type RestingOrderPlacer } from '../positions/position-service.js';
import type { PositionStore } from '../positions/position-store.js';
import type { TradingServices } from '../trading-services.js';

/** What the trading routes call on a key's book: the live book's services, or its running replay's journal. */
export type BookTrading = Pick<TradingServices, 'positions' | 'closes' | 'reads'>;

/** The replay at the moment of a request: its symbol, cursor and the price there. */
export interface CursorQuote {
  symbol: string;
  cursor: number;
  price: number;
}

/** Prices at a replay's cursor: its symbol only, fresh by definition. */
export class CursorPrices extends LivePrices {
  constructor(
    store: MarketStore,
    clock: Clock,
    rules: FreshnessRules,
    private readonly quote: CursorQuote,
  ) {
    super(store, clock, rules);
  }

  override async fillPrice(input: string): Promise<LivePrice> {
    const symbol = canonicalSymbol(input);
    if (symbol !== this.quote.symbol) {
      throw new AppError(
        'replay_symbol_only',
        `a replay of ${baseOf(this.quote.symbol)} runs on this key: trade ${baseOf(this.quote.symbol)}`,
        {
          symbol: baseOf(this.quote.symbol),
        },
      );
    }
    return { symbol, assetClass: 'crypto', price: this.quote.price, ts: this.quote.cursor, unchangedMs: 0 };
  }

  override async marks(symbols: readonly string[]): Promise<Map<string, Mark>> {
    const out = new Map<string, Mark>();
    if (symbols.includes(this.quote.symbol)) out.set(this.quote.symbol, { price: this.quote.price, stale: false });
    return out;
  }
}

const marketOnly: RestingOrderPlacer = {
  place: () =>
    Promise.reject(new AppError('replay_market_only', 'limit and stop entries are not available in a replay: send a market entry')),
};

export interface JournalDeps {
  store: PositionStore;
  marketStore: MarketStore;
  freshness: FreshnessRules;
  funding: FundingStore;
  fees: FeeSettings;
  changes: ChangeGate;
  /** The journal book's simulation profile (never set: a replay fills with the engine defaults) and the depth a fill may walk. */
  sim: SimSettings;
  depth: DepthStore;
}

/** The journal's services at one cursor. */
export function journalTrading(deps: JournalDeps, quote: CursorQuote): BookTrading {
  const clock: Clock = { now: () => quote.cursor };
  const positionDeps: PositionDeps = {
    store: deps.store,
    prices: new CursorPrices(deps.marketStore, clock, deps.freshness, quote),
    funding: deps.funding,
    fees: deps.fees,
    clock,
    changes: deps.changes,
    sim: deps.sim,
    depth: deps.depth,
  };
  return {
    positions: new PositionService(positionDeps, marketOnly),
    closes: new CloseService(positionDeps),
    reads: new PositionReads(positionDeps),
  };
}

/** The key's context on its journal: the same key, trading the journal's book (whose profile the gate did not read). */
export const journalContext = (ctx: KeyContext, book: string): KeyContext => ({ ...ctx, book, simProfile: undefined });
