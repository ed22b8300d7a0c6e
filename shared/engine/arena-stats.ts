/**
 * The arena's statistics over a book's closes in one season: the tally each close adds to, the
 * figures of a row (win rate, return, average ROE, the realism label) and the ranking. Pure: no
 * Redis, no clock; the rollup reads the tallies and calls these.
 */

/** Closes a book needs in a season to be ranked. */
export const MIN_CLOSES = 5;

/** What one close adds to its book's season tally. */
export interface CloseFacts {
  /** Realized P&L of the closed record, integer cents. */
  pnlCents: number;
  /** Its ROE in hundredths of a percent (roe_pct x 100, rounded), so sums stay integers. */
  roeBp: number;
  liquidated: boolean;
  /** The record's realism stamp: slippage applied at its fills. */
  slippage: boolean;
  /** The record's realism stamp: tiered maintenance margin. */
  tiered: boolean;
}

/** A book's closes in one season, summed. A close with P&L above zero is a win, anything else a loss (as the book counters count). */
export interface SeasonTally {
  closes: number;
  wins: number;
  pnlCents: number;
  roeSumBp: number;
  liquidations: number;
  slippageCloses: number;
  tieredCloses: number;
}

const round2 = (value: number): number => Math.round(value * 100) / 100;

/** Wins over closes, percent (2 decimals); null without a close. */
export function winRatePct(t: SeasonTally): number | null {
  return t.closes === 0 ? null : round2((t.wins / t.closes) * 100);
}

/** Realized P&L over the nominal starting balance, percent (2 decimals). */
export function returnPct(t: SeasonTally, startingBalanceUsd: number): number {
  return round2((t.pnlCents / 100 / startingBalanceUsd) * 100);
}

/** The mean ROE of the closes, percent (2 decimals); null without a close. */
export function avgRoePct(t: SeasonTally): number | null {
  return t.closes === 0 ? null : round2(t.roeSumBp / t.closes / 100);
}

/**
 * How much of the book's season ran with realism switched on: `off` while every close used the
 * engine defaults (no slippage, flat maintenance margin), `on` when every close used both slippage
 * and tiered margin, `partial` for anything between.
 */
export type RealismLabel = 'off' | 'partial' | 'on';

export function realismLabel(t: SeasonTally): RealismLabel {
  if (t.slippageCloses === 0 && t.tieredCloses === 0) return 'off';
  return t.slippageCloses === t.closes && t.tieredCloses === t.closes ? 'on' : 'partial';
}

export interface Ranked<T> {
  rank: number;
  entry: T;
}

/**
 * The board: books with at least `minCloses` closes, by realized P&L, highest first; the first
 * `limit` of them. Equal P&L shares a rank (1, 2, 2, 4); within it more wins first, then the id, so
 * the order never depends on the order read.
 */
export function rankBooks<T extends { id: string; tally: SeasonTally }>(
  entries: Iterable<T>,
  minCloses: number,
  limit: number,
): Ranked<T>[] {
  const eligible: T[] = [];
  for (const entry of entries) if (entry.tally.closes >= minCloses) eligible.push(entry);
  eligible.sort((a, b) => b.tally.pnlCents - a.tally.pnlCents || b.tally.wins - a.tally.wins || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const shown = eligible.slice(0, Math.max(0, limit));
  let rank = 0;
  return shown.map((entry, i) => {
    if (i === 0 || entry.tally.pnlCents !== shown[i - 1].tally.pnlCents) rank = i + 1;
    return { rank, entry };
  });
}
