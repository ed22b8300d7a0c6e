/**
 * What one close adds to its book's read models (the equity curve and the report's day buckets):
 * the facts of the closed record, and the integer increments of its UTC day's bucket. The settlement
 * script (position-close.lua) applies them in the same atomic step as the close, so a close settled
 * once is counted once. Pure.
 */
import { toCents, type Side } from '../side.js';

export const MINUTE_MS = 60_000;
export const DAY_MS = 86_400_000;

/** The closed record's facts the read models use. */
export interface CloseFacts {
  symbol: string;
  side: Side;
  leverage: number;
  /** Margin of the closed record (the closed part of a partial close), USD. */
  margin: number;
  opened_ts: number;
  closed_ts: number;
  /** Realized P&L, integer cents (what the book's counters add). */
  cents: number;
  roe_pct: number;
  fees_usd: number;
  funding_usd: number;
  liquidated: boolean;
}

/** Leverage bands of byLev: each band is named by its range, the last one open-ended. */
export const LEVERAGE_BANDS: readonly { label: string; max: number }[] = [
  { label: '1-5', max: 5 },
  { label: '6-10', max: 10 },
  { label: '11-25', max: 25 },
  { label: '26-50', max: 50 },
  { label: '51-100', max: 100 },
  { label: '101+', max: Infinity },
];

export function leverageBand(leverage: number): string {
  return (LEVERAGE_BANDS.find((band) => leverage <= band.max) ?? LEVERAGE_BANDS[LEVERAGE_BANDS.length - 1]).label;
}

/** The breakdown dimensions: the field prefix of each in a day bucket, and the report's name for it. */
export const DIMENSIONS = { c: 'byCoin', lv: 'byLev', sd: 'bySide', h: 'byHour', wd: 'byDay' } as const;
export type Dimension = keyof typeof DIMENSIONS;

/** Names of the weekdays of byDay, by getUTCDay. */
export const WEEKDAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] as const;

/**
 * The group of each dimension a close falls in: its symbol, leverage band, side, and the UTC hour and
 * weekday it was opened (the timing a trader chooses; the close time is often a stop's).
 */
export function closeGroups(facts: Pick<CloseFacts, 'symbol' | 'leverage' | 'side' | 'opened_ts'>): Record<Dimension, string> {
  const opened = new Date(facts.opened_ts);
  return {
    c: facts.symbol,
    lv: leverageBand(facts.leverage),
    sd: facts.side,
    h: String(opened.getUTCHours()),
    wd: WEEKDAYS[opened.getUTCDay()],
  };
}

/** The UTC day number of a time (days since the epoch): the day bucket a close is counted in. */
export function dayIndex(ts: number): number {
  return Math.floor(ts / DAY_MS);
}

/** The start of the minute holding ts: the equity curve's resolution. */
export function minuteOf(ts: number): number {
  return Math.floor(ts / MINUTE_MS) * MINUTE_MS;
}

/**
 * The HINCRBY increments of the close's day bucket, as [field, integer] pairs. Totals: n closes,
 * w wins (P&L above 0, as the book's counters count them), l losses, pnl, gp gross profit and gl
 * gross loss (cents, gl positive), roe (hundredths of a percent), liq, fee and fund (cents), hold
 * (ms). Per group of each dimension `<dim>|<group>|n`, `|w` and `|p` (P&L cents). The best and
 * worst trade are kept by the script itself (a maximum is no increment).
 */
export function closeIncrements(facts: CloseFacts): [string, number][] {
  const win = facts.cents > 0;
  const out: [string, number][] = [
    ['n', 1],
    [win ? 'w' : 'l', 1],
    ['pnl', facts.cents],
    [win ? 'gp' : 'gl', Math.abs(facts.cents)],
    ['roe', Math.round(facts.roe_pct * 100)],
    ['fee', toCents(facts.fees_usd)],
    ['fund', toCents(facts.funding_usd)],
    ['hold', Math.max(0, facts.closed_ts - facts.opened_ts)],
  ];
  if (facts.liquidated) out.push(['liq', 1]);
  for (const [dim, group] of Object.entries(closeGroups(facts))) {
    out.push([`${dim}|${group}|n`, 1], [`${dim}|${group}|p`, facts.cents]);
    if (win) out.push([`${dim}|${group}|w`, 1]);
  }
  return out;
}
