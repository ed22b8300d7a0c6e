/**
 * The read models of a book: GET /equity (the equity curve) and GET /report (totals, skill score,
 * breakdowns and findings by plan). Validated input in, the statistics of shared/engine/analytics
 * over what the settlement wrote (analytics-store.ts) out.
 */
import type { Clock } from '../../core/clock.js';
import { AppError } from '../../core/errors.js';
import { DAY_MS, dayIndex } from '../../engine/analytics/close-facts.js';
import { equityGrid, equityPoints, maxDrawdownPct, defaultStepMin, type EquityPoint } from '../../engine/analytics/equity-curve.js';
import {
  reportBreakdowns,
  reportFindings,
  reportTotals,
  sumBuckets,
  type Breakdowns,
  type Finding,
  type ReportTotals,
} from '../../engine/analytics/report-stats.js';
import { skillScore, SKILL_DRAWS, type PricePoint, type Skill, type SkillTrade } from '../../engine/analytics/skill.js';
import type { MarketStore } from '../../market/market-store.js';
import type { KeyContext } from '../key-context.js';
import { refOf } from '../positions/position-service.js';
import type { PositionReads } from '../positions/position-reads.js';
import type { BookCounters } from '../positions/book-counters.js';
import type { PositionStore } from '../positions/position-store.js';
import type { BookRef, Position } from '../positions/position-types.js';
import type { AnalyticsStore, Stamped } from './analytics-store.js';

/** The skill score rests on the window's newest closes, at most this many (its n says how many). */
export const SKILL_MAX_TRADES = 500;
/** A skill score is kept this long for the same book, window and closes (prices move; the draws are seeded by the day). */
const SKILL_CACHE_S = 300;
/** A curve or a report is kept this long for the same closes, reset and grid or day. */
const READ_CACHE_S = 60;
/** The stored 1-minute candles (the newest day) the baseline paths take. */
const CANDLES_PER_PATH = 1441;

/** The points of a curve and their drawdown (what /equity caches; now is read each time). */
interface Curve {
  points: EquityPoint[];
  max_drawdown_pct: number;
}

export interface EquityBody {
  ok: true;
  points: EquityPoint[];
  /** Equity this moment: balance plus the open positions at mark. */
  now: number;
  max_drawdown_pct: number;
  starting_balance_usd: number;
}

/** What a report withholds on Free. */
export const PAID_REPORT_PARTS = ['byCoin', 'byLev', 'bySide', 'byHour', 'byDay', 'findings'] as const;

export interface ReportBody extends Partial<Breakdowns> {
  days: number;
  total: ReportTotals;
  skill: Skill;
  plan: string;
  /** True when the plan includes the breakdowns and findings. */
  breakdowns: boolean;
  /** Deprecated alias of breakdowns. */
  premium: boolean;
  /** The parts withheld on this plan. */
  locked: string[];
  findings?: Finding[];
}

export interface AnalyticsDeps {
  store: AnalyticsStore;
  positions: PositionStore;
  reads: PositionReads;
  marketStore: MarketStore;
  clock: Clock;
}

export class AnalyticsService {
  constructor(private readonly deps: AnalyticsDeps) {}

  /** days 1-90 and stepMin 5-1440 were validated by the route; stepMin absent takes the default for days. */
  async equity(ctx: KeyContext, query: { days: number; stepMin?: number }): Promise<EquityBody> {
    const ref = refOf(ctx);
    const stepMin = query.stepMin ?? defaultStepMin(query.days);
    const what = `curve:${query.days}:${stepMin}`;
    const [counters, cached, balance] = await Promise.all([
      this.deps.positions.counters(ref),
      this.deps.store.cached<Curve>(ref, what),
      this.deps.reads.balance(ctx),
    ]);
    const curve = await this.curve(ref, query.days, stepMin, counters, cached);
    return {
      ok: true,
      points: curve.points,
      now: balance.equity_usd,
      max_drawdown_pct: curve.max_drawdown_pct,
      starting_balance_usd: balance.starting_balance_usd,
    };
  }

  /**
   * The curve's points and drawdown: from the cache while the book has made no close and no reset
   * since it was computed and its grid has not moved (the grid ends at the current minute).
   */
  private async curve(ref: BookRef, days: number, stepMin: number, counters: BookCounters, cached: Stamped<Curve> | null): Promise<Curve> {
    const grid = equityGrid(this.deps.clock.now(), days, stepMin);
    const stamp = `${counters.life_closed}|${counters.reset_ts}|${grid.first}`;
    if (cached?.stamp === stamp) return cached.value;
    const samples = await this.deps.store.curveSamples(ref, grid);
    const points = equityPoints({ grid, samples, startingBalanceUsd: counters.starting_balance, resetTs: counters.reset_ts });
    const curve: Curve = { points, max_drawdown_pct: maxDrawdownPct(points.map((p) => p.equity_usd)) };
    await this.deps.store.cache(ref, `curve:${days}:${stepMin}`, stamp, curve, READ_CACHE_S);
    return curve;
  }

  /**
   * days was validated as a whole number from 1; beyond the plan's depth: 400 days_beyond_plan naming
   * it. Served from the cache while the book has made no close and no reset since it was computed,
   * the UTC day is the same and at most READ_CACHE_S have passed (the drawdown's window moves).
   */
  async report(ctx: KeyContext, query: { days: number }): Promise<ReportBody> {
    const { limits } = ctx.plan;
    const { days } = query;
    if (days > limits.reportMaxDays) {
      throw new AppError('days_beyond_plan', `the ${limits.label} plan reports up to ${limits.reportMaxDays} days`, {
        max_days: limits.reportMaxDays,
        plan: limits.id,
      });
    }
    const ref = refOf(ctx);
    const now = this.deps.clock.now();
    const today = dayIndex(now);
    const what = `report:${days}:${limits.id}`;
    const [counters, cached] = await Promise.all([this.deps.positions.counters(ref), this.deps.store.cached<ReportBody>(ref, what)]);
    const stamp = `${counters.life_closed}|${counters.reset_ts}|${today}`;
    if (cached?.stamp === stamp) return cached.value;
    // whole UTC days: today and the days - 1 before it, none before the day of the last reset (its bucket restarted there)
    const firstDay = Math.max(today - days + 1, dayIndex(counters.reset_ts));
    const wanted = Array.from({ length: today - firstDay + 1 }, (_, i) => firstDay + i);
    const from = Math.max(firstDay * DAY_MS, counters.reset_ts);
    const stepMin = defaultStepMin(days);
    const [buckets, curve, skill] = await Promise.all([
      this.deps.store.dayBuckets(ref, wanted),
      this.deps.store.cached<Curve>(ref, `curve:${days}:${stepMin}`).then((c) => this.curve(ref, days, stepMin, counters, c)),
      this.skill(ref, days, from, now, stamp),
    ]);
    const sum = sumBuckets(buckets);
    const total = reportTotals(sum, counters.starting_balance, curve.max_drawdown_pct);
    const paid = limits.tier > 0;
    let body: ReportBody = {
      days,
      total,
      skill,
      plan: limits.id,
      breakdowns: paid,
      premium: paid,
      locked: paid ? [] : [...PAID_REPORT_PARTS],
    };
    if (paid) {
      const breakdowns = reportBreakdowns(sum);
      body = { ...body, ...breakdowns, findings: reportFindings(total, breakdowns) };
    }
    await this.deps.store.cache(ref, what, stamp, body, READ_CACHE_S);
    return body;
  }

  /** The window's skill score, from the cache while the book has made no close since it was computed (and for at most SKILL_CACHE_S). */
  private async skill(ref: BookRef, days: number, from: number, now: number, stamp: string): Promise<Skill> {
    const what = `skill:${days}`;
    const cached = await this.deps.store.cached<Skill>(ref, what);
    if (cached?.stamp === stamp) return cached.value;
    const closed = await this.deps.positions.listClosed(ref, { minTs: from, maxTs: Infinity, limit: SKILL_MAX_TRADES });
    const trades = closed.map(skillTrade);
    const paths = await this.pricePaths(closed, from, now);
    const seed = `${ref.accountId}|${ref.book}|${days}|${dayIndex(now)}`;
    const skill = skillScore({ trades, paths, from, to: now, draws: SKILL_DRAWS, seed });
    await this.deps.store.cache(ref, what, stamp, skill, SKILL_CACHE_S);
    return skill;
  }

  /**
   * Each traded symbol's prices over the window: the stored 1-minute candles (the newest day) and
   * the book's own fills of it (each entry and exit is the market at that moment), oldest first.
   */
  private async pricePaths(closed: readonly Position[], from: number, now: number): Promise<Map<string, PricePoint[]>> {
    const fills = new Map<string, PricePoint[]>();
    for (const p of closed) {
      const path = fills.get(p.symbol) ?? [];
      fills.set(p.symbol, path);
      path.push({ t: p.opened_ts, price: p.entry }, { t: p.closed_ts ?? p.opened_ts, price: p.exit ?? p.entry });
    }
    const symbols = [...fills.keys()];
    const candles = await Promise.all(
      symbols.map((symbol) => this.deps.marketStore.getCandles(symbol, { fromMs: from, toMs: now, limit: CANDLES_PER_PATH })),
    );
    return new Map(
      symbols.map((symbol, i) => {
        const closes = candles[i].filter((c) => c.closed).map((c) => ({ t: c.openTime + 60_000, price: c.close }));
        return [symbol, [...fills.get(symbol)!, ...closes].filter((point) => point.t >= from).sort((a, b) => a.t - b.t)];
      }),
    );
  }
}

function skillTrade(p: Position): SkillTrade {
  return {
    symbol: p.symbol,
    side: p.side,
    margin: p.margin,
    leverage: p.leverage,
    fee_rate_pct: p.fee_rate_pct,
    opened_ts: p.opened_ts,
    closed_ts: p.closed_ts ?? p.opened_ts,
    pnl_usd: p.pnl_usd ?? 0,
  };
}
