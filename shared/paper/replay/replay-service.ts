/**
 * Replay of a past UTC day, per key (spec: state table "Replay (per key)"): start, the state with
 * its bars, stop with the summary, and the switch the trading routes ask for (the key's journal
 * while its replay exists, else nothing). The clock that moves the cursor and sweeps each replayed
 * minute is replay-clock.ts, run by the worker's replay job that start adds.
 */
import type { Clock } from '../../core/clock.js';
import { AppError } from '../../core/errors.js';
import { baseOf, canonicalSymbol } from '../../market/canonical-symbol.js';
import type { MarketStore } from '../../market/market-store.js';
import type { FreshnessRules } from '../../market/quote-freshness.js';
import { ChangeGate } from '../change-gate.js';
import type { FeeSettings } from '../fees/fee-settings.js';
import type { FundingStore } from '../funding/funding-store.js';
import type { KeyContext } from '../key-context.js';
import type { TradeRow } from '../positions/position-reads.js';
import { timedId } from '../timed-ids.js';
import { ReplayCandles } from './replay-candles.js';
import type { DepthStore } from '../../market/depth-store.js';
import type { SimSettings } from '../sim/sim-settings.js';
import { journalContext, journalTrading, type BookTrading } from './replay-journal.js';
import {
  barsAt,
  dayBounds,
  priceAt,
  progressPct,
  REPLAY_SPEED,
  summaryNumbers,
  visibleCursor,
  type ReplayBar,
  type ReplaySummaryNumbers,
} from './replay-math.js';
import { journalBook, journalRef, type ReplayState, type ReplayStore } from './replay-store.js';

/** Starts a replay's clock (the worker's replay queue). */
export interface ReplayClockStarter {
  start(state: Pick<ReplayState, 'id' | 'accountId' | 'keyId'>): Promise<void>;
}

export interface ReplayServiceDeps {
  store: ReplayStore;
  market: MarketStore;
  freshness: FreshnessRules;
  funding: FundingStore;
  fees: FeeSettings;
  clock: Clock;
  clocks: ReplayClockStarter;
  sim: SimSettings;
  depth: DepthStore;
}

export interface ReplayStartRequest {
  act?: 'start' | 'stop';
  symbol?: string;
  day?: string;
  speed?: number;
}

export interface ReplayStarted {
  ok: true;
  replay: {
    id: string;
    symbol: string;
    day: string;
    speed: number;
    start_ts: number;
    end_ts: number;
    candles: number;
    first_price: number;
  };
}

export interface ReplayStopped {
  ok: true;
  replay: ReplaySummaryNumbers & { trades: TradeRow[] };
}

/** GET /replay: the key's replay, or `{ running: false }` when it runs none. */
export type ReplayView = ReplayRunning | { running: false };

export interface ReplayRunning {
  running: boolean;
  id: string;
  symbol: string;
  day: string;
  speed: number;
  start_ts: number;
  end_ts: number;
  cursor_ts: number;
  cursor_iso: string;
  progress_pct: number;
  price: number;
  finished: boolean;
  bars: ReplayBar[];
}

/** Trades listed in the stop summary. */
const SUMMARY_TRADES = 50;
/** Rounds of close-all then stop when opens keep arriving between them. */
const STOP_ATTEMPTS = 5;

const noReplay = (): AppError => new AppError('no_replay', 'this key runs no replay: POST /replay {symbol, day, speed} starts one');

export class ReplayService {
  readonly candles: ReplayCandles;
  /** One gate for every journal's changes on this process (their positions' keys differ from the live ones). */
  private readonly changes = new ChangeGate();

  constructor(private readonly deps: ReplayServiceDeps) {
    this.candles = new ReplayCandles(deps.market, deps.store);
  }

  async start(ctx: KeyContext, req: ReplayStartRequest): Promise<ReplayStarted> {
    const symbol = typeof req.symbol === 'string' && req.symbol !== '' ? canonicalSymbol(req.symbol) : undefined;
    if (symbol === undefined) throw new AppError('symbol_required', 'send symbol: the crypto perpetual to replay (BTC, ETHUSDT)');
    if (symbol === null) throw new AppError('unknown_symbol', `unknown symbol: ${req.symbol}`, { symbol: req.symbol });
    if ((await this.deps.market.assetClass(symbol)) !== 'crypto') {
      throw new AppError('replay_crypto_only', `replay covers crypto perpetuals only; ${baseOf(symbol)} is not one`, {
        symbol: baseOf(symbol),
      });
    }
    const day = req.day ?? '';
    const bounds = dayBounds(day);
    if (!bounds) throw new AppError('day_invalid', 'day must be a UTC date YYYY-MM-DD', { day: req.day ?? null });
    const now = this.deps.clock.now();
    if (bounds.endTs > now) throw new AppError('day_not_finished', `${day} is not a complete past UTC day yet`, { day });
    const speed = req.speed ?? REPLAY_SPEED.default;
    if (!(Number.isFinite(speed) && speed >= REPLAY_SPEED.min && speed <= REPLAY_SPEED.max)) {
      throw new AppError('speed_invalid', `speed must be ${REPLAY_SPEED.min} to ${REPLAY_SPEED.max} times real time`, { speed });
    }
    if (await this.deps.store.get(ctx.accountId, ctx.keyId)) throw running();
    if (!(await this.deps.market.isKnownSymbol(symbol)))
      throw new AppError('unknown_symbol', `unknown symbol: ${req.symbol}`, { symbol: req.symbol });

    const candles = await this.candles.day(symbol, day, bounds);
    if (candles.length === 0)
      throw new AppError('no_data', `the exchanges have no 1-minute candles of ${baseOf(symbol)} on ${day}`, { day });
    const id = timedId('rp', now);
    const state: ReplayState = {
      id,
      keyId: ctx.keyId,
      accountId: ctx.accountId,
      symbol,
      day,
      speed,
      startTs: bounds.startTs,
      endTs: bounds.endTs,
      startedAt: this.deps.clock.now(),
      sweptTo: bounds.startTs,
      candles: candles.length,
      firstPrice: candles[0].open,
      finished: false,
      book: journalBook(id),
    };
    if (!(await this.deps.store.start(state))) throw running();
    await this.deps.clocks.start(state);
    return {
      ok: true,
      replay: {
        id,
        symbol: baseOf(symbol),
        day,
        speed,
        start_ts: state.startTs,
        end_ts: state.endTs,
        candles: state.candles,
        first_price: state.firstPrice,
      },
    };
  }

  /** The key's replay now: cursor, price and bars up to the cursor. */
  async view(ctx: KeyContext, query: { interval: number; bars: number }): Promise<ReplayView> {
    const state = await this.deps.store.get(ctx.accountId, ctx.keyId);
    if (!state) return { running: false };
    const candles = await this.candles.day(state.symbol, state.day, state);
    const cursor = visibleCursor(state, this.deps.clock.now());
    const finished = state.finished || state.sweptTo >= state.endTs;
    return {
      running: !finished,
      id: state.id,
      symbol: baseOf(state.symbol),
      day: state.day,
      speed: state.speed,
      start_ts: state.startTs,
      end_ts: state.endTs,
      cursor_ts: cursor,
      cursor_iso: new Date(cursor).toISOString(),
      progress_pct: progressPct(state.startTs, state.endTs, cursor),
      price: priceAt(candles, cursor),
      finished,
      bars: barsAt(candles, cursor, query.interval, query.bars),
    };
  }

  /** Closes the journal at the cursor, answers its summary and ends the replay (the journal emptied). */
  async stop(ctx: KeyContext): Promise<ReplayStopped> {
    for (let attempt = 0; attempt < STOP_ATTEMPTS; attempt++) {
      const state = await this.deps.store.get(ctx.accountId, ctx.keyId);
      if (!state) throw noReplay();
      const { trading, ctx: journalCtx } = await this.journalOf(ctx, state);
      await trading.closes.closeAll(journalCtx);
      const [counters, trades] = await Promise.all([
        this.deps.store.journal.counters(journalRef(state)),
        trading.reads.trades(journalCtx, { limit: SUMMARY_TRADES }),
      ]);
      const outcome = await this.deps.store.stop(state);
      if (outcome.kind === 'missing') throw noReplay();
      if (outcome.kind === 'open') continue;
      const numbers = summaryNumbers({
        closed: counters.closed,
        wins: counters.wins,
        losses: counters.losses,
        liquidations: counters.liquidations,
        realizedCents: counters.realized_cents,
        startingBalance: counters.starting_balance,
      });
      return { ok: true, replay: { ...numbers, trades: trades.trades } };
    }
    throw new AppError('busy', 'positions kept opening while the replay stopped: send stop again', {});
  }

  /**
   * What a trading call of this key acts on: its replay's journal at the cursor while a replay
   * exists (running or finished), else null (the live book).
   */
  async journal(ctx: KeyContext): Promise<{ trading: BookTrading; ctx: KeyContext } | null> {
    const state = await this.deps.store.get(ctx.accountId, ctx.keyId);
    return state ? this.journalOf(ctx, state) : null;
  }

  private async journalOf(ctx: KeyContext, state: ReplayState): Promise<{ trading: BookTrading; ctx: KeyContext }> {
    const candles = await this.candles.day(state.symbol, state.day, state);
    const cursor = visibleCursor(state, this.deps.clock.now());
    const { store, market, freshness, funding, fees } = this.deps;
    const trading = journalTrading(
      {
        store: store.journal,
        marketStore: market,
        freshness,
        funding,
        fees,
        changes: this.changes,
        sim: this.deps.sim,
        depth: this.deps.depth,
      },
      { symbol: state.symbol, cursor, price: priceAt(candles, cursor) },
    );
    return { trading, ctx: journalContext(ctx, state.book) };
  }
}

function running(): AppError {
  return new AppError('replay_running', 'this key already runs a replay: POST /replay {act: "stop"} ends it');
}
