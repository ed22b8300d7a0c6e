/** A book's counters (its stats hash) as numbers. Pure. */

export interface BookCounters {
  reset_ts: number;
  starting_balance: number;
  realized_cents: number;
  closed: number;
  wins: number;
  losses: number;
  liquidations: number;
  best_cents: number | null;
  life_realized_cents: number;
  life_closed: number;
  life_wins: number;
  life_losses: number;
}

const num = (value: string | undefined, fallback = 0): number => (value === undefined || value === '' ? fallback : Number(value));

/** A book's counters hash (HGETALL) as numbers: 0 when unset, the starting balance 10000 and best_cents null. */
export function bookCounters(h: Record<string, string>): BookCounters {
  return {
    reset_ts: num(h.reset_ts),
    starting_balance: num(h.starting_balance, 10_000),
    realized_cents: num(h.realized_cents),
    closed: num(h.closed),
    wins: num(h.wins),
    losses: num(h.losses),
    liquidations: num(h.liquidations),
    best_cents: h.best_cents === undefined ? null : Number(h.best_cents),
    life_realized_cents: num(h.life_realized_cents),
    life_closed: num(h.life_closed),
    life_wins: num(h.life_wins),
    life_losses: num(h.life_losses),
  };
}
