/** Reads of a book: positions (with marks and an ETag), trades, the account summary and the balance. */
import { createHash } from 'node:crypto';
import { roundUsd, toCents, trimNumber } from '../../engine/side.js';
import { ratchetTrail } from '../../engine/trailing.js';
import { baseOf } from '../../market/canonical-symbol.js';
import type { KeyContext } from '../key-context.js';
import type { Mark } from '../../market/quote-freshness.js';
import { fundingOwed, type PositionDeps } from './position-deps.js';
import { refOf } from './position-service.js';
import type { BookCounters } from './book-counters.js';
import type { BookRef, Position, StoredPosition } from './position-types.js';
import { closedView, etagMaterial, openView, type PositionView } from './position-view.js';

export const POSITIONS_CAP = 100;
export const STARTING_BALANCE_USD = 10_000;
const DAY_MS = 86_400_000;
/** More trades than one millisecond can hold (a close_all of a book at its cap settles 1000 at once). */
const MILLISECOND_MAX = 100_000;

/**
 * Where the next page of trades starts: the close time (ms) of the last row, exclusive, when the
 * next row closed earlier (the spec's unix ms cursor); `<ms>:<id>` when the page ends inside a
 * millisecond, so the next page starts at the row after that id. Clients pass it back as before.
 */
export type TradesCursor = number | `${number}:${string}`;

/** The before parameter: `<ms>` or `<ms>:<id>` (the route checks the shape). */
export function parseTradesCursor(text: string): { ts: number; id?: string } {
  const mark = text.indexOf(':');
  return mark < 0 ? { ts: Number(text) } : { ts: Number(text.slice(0, mark)), id: text.slice(mark + 1) };
}

/** The cursor after `last` when `next` is the row that follows it. Pure. */
export function tradesCursor(last: Pick<Position, 'closed_ts' | 'id'>, next: Pick<Position, 'closed_ts'>): TradesCursor {
  const ts = last.closed_ts ?? 0;
  return next.closed_ts === ts ? `${ts}:${last.id}` : ts;
}

export interface PositionsQuery {
  status?: 'open' | 'closed';
  /** Unix ms: positions opened or closed at or after it. */
  since?: number;
}

export interface PositionsResult {
  positions: PositionView[];
  etag: string;
}

export interface TradeRow {
  id: string;
  closed_ts: number;
  opened_ts: number;
  symbol: string;
  side: string;
  leverage: number;
  margin_usd: number;
  qty: number;
  entry_price: number;
  exit_price: number;
  pnl_usd: number;
  roe_pct: number;
  fees_usd: number;
  funding_usd: number;
  liquidated: boolean;
  via: string;
  partial_pct?: number;
  parent_id?: string;
}

export interface TradesResult {
  trades: TradeRow[];
  count: number;
  /** The before of the next page (tradesCursor); null at the end. */
  next_before: TradesCursor | null;
  retention_days: number;
}

export function tradeRow(p: Position): TradeRow {
  return {
    id: p.id,
    closed_ts: p.closed_ts ?? 0,
    opened_ts: p.opened_ts,
    symbol: baseOf(p.symbol),
    side: p.side,
    leverage: p.leverage,
    margin_usd: p.margin,
    qty: p.qty,
    entry_price: p.entry,
    exit_price: p.exit ?? 0,
    pnl_usd: p.pnl_usd ?? 0,
    roe_pct: p.roe_pct ?? 0,
    fees_usd: p.fees_usd ?? 0,
    funding_usd: p.funding_usd ?? 0,
    liquidated: p.liquidated === true,
    via: p.close_reason ?? 'manual',
    ...(p.partial_pct !== undefined ? { partial_pct: p.partial_pct, parent_id: p.parent_id } : {}),
  };
}

interface OpenBook {
  views: PositionView[];
  marginCents: number;
  unrealizedCents: number;
}

export class PositionReads {
  constructor(private readonly deps: PositionDeps) {}

  /** The symbols of a book's open positions, each once (the stream's prices). */
  async openSymbols(ref: BookRef): Promise<string[]> {
    const open = await this.deps.store.listOpen(ref);
    return [...new Set(open.map((stored) => stored.position.symbol))];
  }

  /**
   * The stream's snapshot: the open positions as /positions shows them, and the account outbox's entry id they are
   * read at (every event up to it is already in them, none after it).
   */
  async snapshot(ctx: KeyContext): Promise<{ positions: PositionView[]; outboxId: string }> {
    const { open, outboxId } = await this.deps.store.listOpenAtOutbox(refOf(ctx));
    const { views } = await this.openBook(ctx, open);
    return { positions: views.reverse().slice(0, POSITIONS_CAP), outboxId };
  }

  /** Open positions (`read`, else read now) with their marks and funding owed now; trailing stops ratchet to the marks first. */
  private async openBook(ctx: KeyContext, read?: StoredPosition[]): Promise<OpenBook> {
    const { store, prices, funding, clock } = this.deps;
    const stored = read ?? (await store.listOpen(refOf(ctx)));
    const now = clock.now();
    const [marks, owed] = await Promise.all([
      prices.marks(stored.map((s) => s.position.symbol)),
      Promise.all(stored.map((s) => fundingOwed(funding, s.position, now))),
    ]);
    const open = await this.ratchet(refOf(ctx), stored, marks, now);
    const views = open.map((p, i) => openView(p, marks.get(p.symbol), owed[i]));
    return {
      views,
      marginCents: open.reduce((sum, p) => sum + toCents(p.margin), 0),
      unrealizedCents: views.reduce((sum, v) => sum + toCents(v.unrealized_pnl_usd ?? 0), 0),
    };
  }

  /**
   * A trailing stop ratchets on every read (spec): a fresh mark better than the high-water mark
   * moves it (position.updated), through the same compare-and-set as sltp. A position that changed
   * meanwhile is shown as read; the next read or the minute sweep ratchets it.
   */
  private ratchet(ref: BookRef, stored: readonly StoredPosition[], marks: Map<string, Mark>, now: number): Promise<Position[]> {
    return Promise.all(
      stored.map(async (read) => {
        const p = read.position;
        const mark = marks.get(p.symbol);
        const moved = mark && !mark.stale ? ratchetTrail(p, mark.price, now) : null;
        if (!moved) return p;
        const updated: Position = { ...p, v: p.v + 1, ...moved };
        return (await this.deps.store.sltp(ref, read, updated, now)) === 'updated' ? updated : p;
      }),
    );
  }

  async positions(ctx: KeyContext, query: PositionsQuery): Promise<PositionsResult> {
    const since = query.since;
    const wantOpen = query.status !== 'closed';
    const wantClosed = query.status === 'closed' || (query.status === undefined && since !== undefined);
    const [open, closed] = await Promise.all([
      wantOpen ? this.openBook(ctx) : undefined,
      wantClosed ? this.deps.store.listClosed(refOf(ctx), { minTs: since ?? 0, maxTs: Infinity, limit: POSITIONS_CAP }) : [],
    ]);
    const openRows = (open?.views ?? []).filter((v) => since === undefined || v.opened_ts >= since).reverse();
    const rows = [...openRows, ...closed.map(closedView)].slice(0, POSITIONS_CAP);
    // the query is part of the tag: a client keeps one ETag across calls, and another query's rows are not this one's
    const material = `${query.status ?? ''}|${since ?? ''}\n${etagMaterial(rows)}`;
    const etag = `W/"${createHash('sha1').update(material).digest('base64url').slice(0, 27)}"`;
    return { positions: rows, etag };
  }

  /**
   * Closed trades newest first (by close time, then id, descending: the order of the book's
   * close-time index), before the cursor and within the plan's history window; at most `limit`.
   */
  async trades(ctx: KeyContext, query: { limit: number; before?: string }): Promise<TradesResult> {
    const { store, clock } = this.deps;
    const ref = refOf(ctx);
    const days = ctx.plan.limits.tradeHistoryDays;
    const minTs = clock.now() - days * DAY_MS;
    const cursor = query.before === undefined ? { ts: Infinity } : parseTradesCursor(query.before);
    const want = query.limit + 1;
    // the rest of the cursor's millisecond first (ids below the cursor's), then older milliseconds
    const afterId = cursor.id;
    const rows =
      afterId === undefined || cursor.ts < minTs
        ? []
        : (await store.listClosed(ref, { minTs: cursor.ts, maxTs: cursor.ts + 1, limit: MILLISECOND_MAX })).filter((p) => p.id < afterId);
    if (rows.length < want) rows.push(...(await store.listClosed(ref, { minTs, maxTs: cursor.ts, limit: want - rows.length })));
    const page = rows.slice(0, query.limit);
    const next = rows[query.limit];
    const trades = page.map(tradeRow);
    return {
      trades,
      count: trades.length,
      next_before: next === undefined ? null : tradesCursor(page[page.length - 1], next),
      retention_days: days,
    };
  }

  async account(ctx: KeyContext): Promise<AccountView> {
    const [open, counters, profile] = await Promise.all([
      this.openBook(ctx),
      this.deps.store.counters(refOf(ctx)),
      this.deps.sim.profileOf(ctx),
    ]);
    const money = moneyFields(counters, open, profile.margin_enforced);
    const decided = counters.wins + counters.losses;
    return {
      account: ctx.book,
      open_positions: open.views.length,
      ...money,
      realized_pnl_usd: counters.realized_cents / 100,
      closed_trades: counters.closed,
      wins: counters.wins,
      losses: counters.losses,
      win_rate_pct: decided === 0 ? null : trimNumber((counters.wins / decided) * 100),
      liquidations: counters.liquidations,
      best_trade_usd: counters.best_cents === null ? null : counters.best_cents / 100,
      return_pct: trimNumber((counters.realized_cents / 100 / money.starting_balance_usd) * 100),
      reset_ts: counters.reset_ts || null,
    };
  }

  async balance(ctx: KeyContext): Promise<BalanceView> {
    const [open, counters, profile] = await Promise.all([
      this.openBook(ctx),
      this.deps.store.counters(refOf(ctx)),
      this.deps.sim.profileOf(ctx),
    ]);
    return { account: ctx.book, ...moneyFields(counters, open, profile.margin_enforced) };
  }
}

/** The money fields of a book, in /balance and /account. */
export interface MoneyFields {
  starting_balance_usd: number;
  balance_usd: number;
  equity_usd: number;
  margin_in_use_usd: number;
  free_margin_usd: number;
  unrealized_pnl_usd: number;
  /** The book profile's margin_enforced (/sim): the balance is a budget for opens. */
  margin_enforced: boolean;
}

export interface BalanceView extends MoneyFields {
  /** The book. */
  account: string;
}

export interface AccountView extends BalanceView {
  open_positions: number;
  realized_pnl_usd: number;
  closed_trades: number;
  wins: number;
  losses: number;
  win_rate_pct: number | null;
  liquidations: number;
  best_trade_usd: number | null;
  return_pct: number;
  reset_ts: number | null;
}

function moneyFields(counters: BookCounters, open: OpenBook, marginEnforced: boolean): MoneyFields {
  const startCents = toCents(counters.starting_balance || STARTING_BALANCE_USD);
  const balanceCents = startCents + counters.realized_cents;
  const equityCents = balanceCents + open.unrealizedCents;
  return {
    starting_balance_usd: startCents / 100,
    balance_usd: balanceCents / 100,
    equity_usd: equityCents / 100,
    margin_in_use_usd: open.marginCents / 100,
    free_margin_usd: (equityCents - open.marginCents) / 100,
    unrealized_pnl_usd: roundUsd(open.unrealizedCents / 100),
    margin_enforced: marginEnforced,
  };
}
