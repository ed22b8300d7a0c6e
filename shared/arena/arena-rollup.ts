/**
 * The arena rollup (a scheduled job, once per cluster): ranks a season's books and stores the board
 * the route serves. The relay summed each book's closes as they settled and kept the books with
 * enough of them in a ranking by P&L, so the rollup reads the top of that ranking and the tallies of
 * the rows shown, then their open positions at mark: its cost follows the rows shown, not the books
 * of the season nor their closes.
 */
import type { Clock } from '../core/clock.js';
import { seasonBounds, seasonExpiresAt, seasonOf } from '../engine/arena-season.js';
import {
  avgRoePct,
  MIN_CLOSES,
  rankBooks,
  realismLabel,
  returnPct,
  winRatePct,
  type RealismLabel,
  type SeasonTally,
} from '../engine/arena-stats.js';
import { toCents } from '../engine/side.js';
import type { FundingStore } from '../paper/funding/funding-store.js';
import type { LivePrices } from '../paper/markets/live-prices.js';
import { fundingOwed } from '../paper/positions/position-deps.js';
import { STARTING_BALANCE_USD } from '../paper/positions/position-reads.js';
import type { PositionStore } from '../paper/positions/position-store.js';
import { openView } from '../paper/positions/position-view.js';
import { publicHandle } from './arena-handle.js';
import { parseBookMember, type ArenaStore } from './arena-store.js';

/** Rows a board shows. */
export const ARENA_ROWS = 100;
/**
 * A finished season is ranked again until this long after its end (closes settled in its last
 * moments reach the tallies through the relay, seconds later); the board stored after that is final.
 */
export const FINAL_AFTER_MS = 5 * 60_000;

export interface ArenaRow {
  rank: number;
  /** The account's public handle (arena-handle.ts). */
  who: string;
  /** The book: main or its name. */
  account: string;
  closes: number;
  wins: number;
  win_rate_pct: number | null;
  pnl_usd: number;
  return_pct: number;
  avg_roe_pct: number | null;
  liquidations: number;
  open_positions: number;
  open_margin_usd: number;
  open_unrealized_usd: number;
  pnl_incl_open_usd: number;
  realism: { slippage_closes: number; tiered_closes: number; label: RealismLabel };
}

/** What the rollup stores per season. */
export interface StoredBoard {
  season: number;
  /** When it was computed, ms: the open-book fields are as of then. */
  computed_ts: number;
  /** Computed after the season's end and its grace (FINAL_AFTER_MS): it will not change again. */
  final: boolean;
  /** Books with at least one close in the season, and those ranked (at least MIN_CLOSES closes). */
  books: number;
  ranked: number;
  rows: ArenaRow[];
}

/** A book's open positions at mark, summed. */
export interface OpenTotals {
  positions: number;
  marginCents: number;
  unrealizedCents: number;
}

/** One row of the board from its book's tally and open totals. Pure. */
export function boardRow(rank: number, accountId: string, book: string, tally: SeasonTally, open: OpenTotals): ArenaRow {
  return {
    rank,
    who: publicHandle(accountId),
    account: book,
    closes: tally.closes,
    wins: tally.wins,
    win_rate_pct: winRatePct(tally),
    pnl_usd: tally.pnlCents / 100,
    return_pct: returnPct(tally, STARTING_BALANCE_USD),
    avg_roe_pct: avgRoePct(tally),
    liquidations: tally.liquidations,
    open_positions: open.positions,
    open_margin_usd: open.marginCents / 100,
    open_unrealized_usd: open.unrealizedCents / 100,
    pnl_incl_open_usd: (tally.pnlCents + open.unrealizedCents) / 100,
    realism: { slippage_closes: tally.slippageCloses, tiered_closes: tally.tieredCloses, label: realismLabel(tally) },
  };
}

export interface ArenaRollupDeps {
  store: ArenaStore;
  positions: PositionStore;
  prices: LivePrices;
  funding: FundingStore;
  clock: Clock;
  /** Rows a board shows (ARENA_ROWS unless a test says otherwise). */
  rows?: number;
}

export interface RollupResult {
  season: number;
  books: number;
  ranked: number;
  final: boolean;
}

export class ArenaRollup {
  constructor(private readonly deps: ArenaRollupDeps) {}

  /** Ranks the current season, and the previous one until its board is final. */
  async run(): Promise<RollupResult[]> {
    const now = this.deps.clock.now();
    const current = seasonOf(now);
    const results = [await this.rank(current, now)];
    const previous = current - 1;
    if (previous >= 1) {
      const stored = await this.deps.store.board(previous);
      if (stored === null || !(JSON.parse(stored) as StoredBoard).final) results.push(await this.rank(previous, now));
    }
    return results;
  }

  /** Ranks one season at `now` and stores its board. */
  async rank(season: number, now: number): Promise<RollupResult> {
    const rows = this.deps.rows ?? ARENA_ROWS;
    const top = await this.deps.store.top(season, rows);
    const ranked = rankBooks(top.candidates, MIN_CLOSES, rows);
    const books = ranked.map(({ entry }) => parseBookMember(entry.id));
    const open = await this.openTotals(books, now);
    const board: StoredBoard = {
      season,
      computed_ts: now,
      final: now >= seasonBounds(season).end + FINAL_AFTER_MS,
      books: top.books,
      ranked: top.ranked,
      rows: ranked.map(({ rank, entry }, i) => boardRow(rank, books[i].accountId, books[i].book, entry.tally, open[i])),
    };
    await this.deps.store.saveBoard(season, JSON.stringify(board), seasonExpiresAt(season));
    return { season, books: board.books, ranked: board.ranked, final: board.final };
  }

  /** The open positions of the books shown, at mark: what each would settle now, funding owed included (as /positions shows it). */
  private async openTotals(books: readonly { accountId: string; book: string }[], now: number): Promise<OpenTotals[]> {
    const { positions, prices, funding } = this.deps;
    const stored = await Promise.all(books.map((ref) => positions.listOpen(ref)));
    const marks = await prices.marks(stored.flatMap((book) => book.map((s) => s.position.symbol)));
    return Promise.all(
      stored.map(async (book) => {
        const owed = await Promise.all(book.map((s) => fundingOwed(funding, s.position, now)));
        let marginCents = 0;
        let unrealizedCents = 0;
        book.forEach(({ position }, i) => {
          marginCents += toCents(position.margin);
          unrealizedCents += toCents(openView(position, marks.get(position.symbol), owed[i]).unrealized_pnl_usd ?? 0);
        });
        return { positions: book.length, marginCents, unrealizedCents };
      }),
    );
  }
}
