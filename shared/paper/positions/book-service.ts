/** Books: the accounts listing (every book with its numbers and keys) and reset. */
import { AppError } from '../../core/errors.js';
import type { BookRegistry } from '../accounts/book-registry.js';
import type { KeySummary } from '../accounts/key-store.js';
import type { KeyContext } from '../key-context.js';
import type { PositionDeps } from './position-deps.js';
import { STARTING_BALANCE_USD } from './position-reads.js';
import { refOf } from './position-service.js';

const MAIN_BOOK = 'main';

export interface BookRow {
  account: string;
  open_positions: number;
  closed_trades: number;
  realized_pnl_usd: number;
  balance_usd: number;
  wins: number;
  losses: number;
  reset_ts: number | null;
  lifetime: { closed_trades: number; realized_pnl_usd: number; wins: number; losses: number };
  keys: { id: string; name: string; bound: boolean; created: number; revoked: boolean; calls: number; last_call_ts: number | null }[];
}

export interface ResetResult {
  ok: true;
  reset_ts: number;
  archived_trades: number;
  cancelled_orders: number;
  starting_balance_usd: number;
}

function keyRow(key: KeySummary): BookRow['keys'][number] {
  return {
    id: key.id,
    name: key.name,
    bound: key.bound,
    created: key.created,
    revoked: key.revokedAt !== null,
    calls: key.calls,
    last_call_ts: key.lastCallAt,
  };
}

export class BookService {
  constructor(
    private readonly deps: PositionDeps,
    /** The account's books and their keys; without one, 'main' plus every book that has traded. */
    private readonly registry?: BookRegistry,
  ) {}

  /** Every book of the account (a book-bound key sees its own book only), with lifetime numbers and keys. */
  async accounts(ctx: KeyContext): Promise<{ accounts: BookRow[]; this_key_account: string }> {
    const books = await this.books(ctx);
    const rows = await Promise.all(
      books.map(async ({ name, keys }) => {
        const ref = { accountId: ctx.accountId, book: name };
        const [counters, open] = await Promise.all([this.deps.store.counters(ref), this.deps.store.countOpen(ref)]);
        return {
          account: name,
          open_positions: open,
          closed_trades: counters.closed,
          realized_pnl_usd: counters.realized_cents / 100,
          balance_usd: ((counters.starting_balance || STARTING_BALANCE_USD) * 100 + counters.realized_cents) / 100,
          wins: counters.wins,
          losses: counters.losses,
          reset_ts: counters.reset_ts || null,
          lifetime: {
            closed_trades: counters.life_closed,
            realized_pnl_usd: counters.life_realized_cents / 100,
            wins: counters.life_wins,
            losses: counters.life_losses,
          },
          keys: keys.map(keyRow),
        };
      }),
    );
    return { accounts: rows, this_key_account: ctx.book };
  }

  private async books(ctx: KeyContext): Promise<{ name: string; keys: KeySummary[] }[]> {
    let all: { name: string; keys: KeySummary[] }[];
    if (this.registry) {
      all = (await this.registry.listBooksWithKeys(ctx.accountId)).map((b) => ({ name: b.name, keys: b.keys }));
    } else {
      const traded = await this.deps.store.tradedBooks(ctx.accountId);
      all = [MAIN_BOOK, ...traded.filter((b) => b !== MAIN_BOOK).sort()].map((name) => ({ name, keys: [] }));
    }
    if (!all.some((b) => b.name === ctx.book)) all.push({ name: ctx.book, keys: [] });
    return ctx.bookBound ? all.filter((b) => b.name === ctx.book) : all;
  }

  /** Restarts the key's book at its profile's start_balance_usd (10000 by default): archives closed trades, cancels resting orders. */
  async reset(ctx: KeyContext, confirm: boolean | undefined): Promise<ResetResult> {
    if (confirm !== true)
      throw new AppError('confirm_required', 'a reset archives every closed trade of this book: send {"confirm": true}');
    const ref = refOf(ctx);
    const startingBalance = (await this.deps.sim.profile(ref)).start_balance_usd;
    let resetTs = this.deps.clock.now();
    for (let attempt = 0; attempt < 5; attempt++) {
      const outcome = await this.deps.store.reset(ref, resetTs, startingBalance);
      if (outcome.kind === 'reset') {
        return {
          ok: true,
          reset_ts: resetTs,
          archived_trades: outcome.archived,
          cancelled_orders: outcome.cancelled,
          starting_balance_usd: startingBalance,
        };
      }
      if (outcome.kind === 'open') {
        throw new AppError('open_positions_exist', `close the ${outcome.open} open positions of this book first (close_all)`, {
          open_positions: outcome.open,
        });
      }
      resetTs += 1; // a reset in the same millisecond already archived under this time
    }
    throw new AppError('internal', 'the book could not be reset; try again');
  }
}
