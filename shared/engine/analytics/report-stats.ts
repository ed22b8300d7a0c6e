/**
 * The report's numbers from a book's day buckets (the increments of close-facts.ts, summed per UTC
 * day): totals, the breakdowns of paid plans and the findings, each finding with the n it rests on.
 * Pure: the buckets are passed in; the cost is the window's days and groups, never its trades.
 */
import { trimNumber } from '../side.js';
import { DIMENSIONS, LEVERAGE_BANDS, WEEKDAYS, type Dimension } from './close-facts.js';

/** A day bucket as stored: field -> integer (see closeIncrements), plus best and worst (cents). */
export type DayBucket = Readonly<Record<string, number>>;

export interface ReportTotals {
  /** The closes in the window (the original's name; closes says the same). */
  n: number;
  closes: number;
  wins: number;
  losses: number;
  win_rate_pct: number | null;
  pnl_usd: number;
  return_pct: number;
  avg_roe_pct: number | null;
  best_trade_usd: number | null;
  worst_trade_usd: number | null;
  /** Gross profit over gross loss; null with no losing close (nothing to divide by). */
  profit_factor: number | null;
  /** Mean P&L per close. */
  expectancy_usd: number | null;
  max_drawdown_pct: number;
  avg_hold_min: number | null;
  liquidations: number;
  fees_usd: number;
  funding_usd: number;
}

export interface GroupStats {
  closes: number;
  wins: number;
  win_rate_pct: number | null;
  pnl_usd: number;
  avg_pnl_usd: number | null;
}

export type Breakdowns = Record<(typeof DIMENSIONS)[Dimension], Record<string, GroupStats>>;

export interface Finding {
  /** The breakdown it comes from (byCoin ...), or total. */
  dimension: string;
  group: string | null;
  /** The closes it rests on. */
  n: number;
  /** False when n is below FINDING_MIN_N: the text then says so instead of concluding. */
  conclusive: boolean;
  text: string;
}

/** Fewer closes than this and a finding does not conclude. */
export const FINDING_MIN_N = 10;

const pct = (part: number, whole: number): number | null => (whole === 0 ? null : trimNumber(Math.round((part / whole) * 10_000) / 100));
const usd = (cents: number): number => Math.round(cents) / 100;

/** The fields of all buckets added up; best the largest, worst the smallest. */
export function sumBuckets(buckets: readonly DayBucket[]): Map<string, number> {
  const sum = new Map<string, number>();
  for (const bucket of buckets) {
    for (const [field, value] of Object.entries(bucket)) {
      const prior = sum.get(field);
      if (field === 'best') sum.set(field, prior === undefined ? value : Math.max(prior, value));
      else if (field === 'worst') sum.set(field, prior === undefined ? value : Math.min(prior, value));
      else sum.set(field, (prior ?? 0) + value);
    }
  }
  return sum;
}

/**
 * Worked example: closes of +30.00, -10.00 and +20.00 USD (ROE 30%, -10%, 20%, held 10, 20 and 30
 * minutes) on a 10000 book -> 3 closes, 2 wins, win rate 66.67%, P&L 40.00, return 0.4%, average ROE
 * 13.33%, best 30.00, worst -10.00, profit factor 50/10 = 5, expectancy 13.33, average hold 20 min.
 */
export function reportTotals(sum: ReadonlyMap<string, number>, startingBalanceUsd: number, maxDrawdown: number): ReportTotals {
  const get = (field: string): number => sum.get(field) ?? 0;
  const n = get('n');
  const gl = get('gl');
  return {
    n,
    closes: n,
    wins: get('w'),
    losses: get('l'),
    win_rate_pct: pct(get('w'), n),
    pnl_usd: usd(get('pnl')),
    return_pct: trimNumber(Math.round((get('pnl') / startingBalanceUsd) * 100) / 100),
    avg_roe_pct: n === 0 ? null : trimNumber(Math.round(get('roe') / n) / 100),
    best_trade_usd: sum.has('best') ? usd(get('best')) : null,
    worst_trade_usd: sum.has('worst') ? usd(get('worst')) : null,
    profit_factor: gl === 0 ? null : trimNumber(Math.round((get('gp') / gl) * 100) / 100),
    expectancy_usd: n === 0 ? null : usd(get('pnl') / n),
    max_drawdown_pct: maxDrawdown,
    avg_hold_min: n === 0 ? null : trimNumber(Math.round(get('hold') / n / 600) / 100),
    liquidations: get('liq'),
    fees_usd: usd(get('fee')),
    funding_usd: usd(get('fund')),
  };
}

/** The order groups are listed in: hours and weekdays in time order, leverage bands ascending, the rest by P&L, best first. */
function groupOrder(dim: Dimension, groups: Map<string, GroupStats>): string[] {
  const names = [...groups.keys()];
  if (dim === 'h') return names.sort((a, b) => Number(a) - Number(b));
  if (dim === 'wd') return WEEKDAYS.filter((day) => groups.has(day));
  if (dim === 'lv') return LEVERAGE_BANDS.map((band) => band.label).filter((label) => groups.has(label));
  return names.sort((a, b) => groups.get(b)!.pnl_usd - groups.get(a)!.pnl_usd || (a < b ? -1 : 1));
}

/** byCoin, byLev, bySide, byHour and byDay from the summed buckets. */
export function reportBreakdowns(sum: ReadonlyMap<string, number>): Breakdowns {
  const raw = new Map<Dimension, Map<string, { n: number; w: number; p: number }>>();
  for (const [field, value] of sum) {
    const parts = field.split('|');
    if (parts.length !== 3 || !(parts[0] in DIMENSIONS)) continue;
    const [dim, group, metric] = parts as [Dimension, string, string];
    const groups = raw.get(dim) ?? new Map<string, { n: number; w: number; p: number }>();
    raw.set(dim, groups);
    const stats = groups.get(group) ?? { n: 0, w: 0, p: 0 };
    groups.set(group, stats);
    if (metric === 'n' || metric === 'w' || metric === 'p') stats[metric] += value;
  }
  const out = {} as Breakdowns;
  for (const dim of Object.keys(DIMENSIONS) as Dimension[]) {
    const groups = new Map(
      [...(raw.get(dim) ?? new Map<string, { n: number; w: number; p: number }>())]
        .filter(([, s]) => s.n > 0)
        .map(([group, s]) => [
          group,
          { closes: s.n, wins: s.w, win_rate_pct: pct(s.w, s.n), pnl_usd: usd(s.p), avg_pnl_usd: usd(s.p / s.n) } satisfies GroupStats,
        ]),
    );
    out[DIMENSIONS[dim]] = Object.fromEntries(groupOrder(dim, groups).map((group) => [group, groups.get(group)!]));
  }
  return out;
}

const money = (value: number): string => `${value >= 0 ? '+' : '-'}${Math.abs(value).toFixed(2)} USD`;

function groupFinding(dimension: string, group: string, stats: GroupStats, best: boolean): Finding {
  const what = `${dimension} ${group} made the ${best ? 'most' : 'least'} per close`;
  const n = stats.closes;
  if (n < FINDING_MIN_N) {
    return {
      dimension,
      group,
      n,
      conclusive: false,
      text: `${what}, but on only ${n} close${n === 1 ? '' : 's'}: too few to conclude (${FINDING_MIN_N} needed)`,
    };
  }
  return {
    dimension,
    group,
    n,
    conclusive: true,
    text: `${what}: ${money(stats.avg_pnl_usd ?? 0)} on average over ${n} closes (win rate ${stats.win_rate_pct ?? 0}%)`,
  };
}

/**
 * For each breakdown with two groups or more, the group with the best and the worst mean P&L per
 * close; a first finding on the window as a whole. Each names the closes it rests on, and below
 * FINDING_MIN_N says it cannot conclude.
 */
export function reportFindings(totals: ReportTotals, breakdowns: Breakdowns): Finding[] {
  const n = totals.closes;
  const overall: Finding =
    n < FINDING_MIN_N
      ? {
          dimension: 'total',
          group: null,
          n,
          conclusive: false,
          text: `${n} close${n === 1 ? '' : 's'} in the window: too few to conclude (${FINDING_MIN_N} needed)`,
        }
      : {
          dimension: 'total',
          group: null,
          n,
          conclusive: true,
          text: `${money(totals.expectancy_usd ?? 0)} per close on average over ${n} closes, win rate ${totals.win_rate_pct ?? 0}%`,
        };
  const findings = [overall];
  for (const [dimension, groups] of Object.entries(breakdowns)) {
    const ranked = Object.entries(groups).sort(([, a], [, b]) => (b.avg_pnl_usd ?? 0) - (a.avg_pnl_usd ?? 0));
    if (ranked.length < 2) continue;
    const [topGroup, top] = ranked[0];
    const [bottomGroup, bottom] = ranked[ranked.length - 1];
    findings.push(groupFinding(dimension, topGroup, top, true), groupFinding(dimension, bottomGroup, bottom, false));
  }
  return findings;
}
