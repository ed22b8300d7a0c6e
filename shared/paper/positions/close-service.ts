/**
 * Closing positions: whole, partial (the position splits and the closed part is recorded), and all
 * of a book. A close first checks the position's own triggers against the price it read: a stop,
 * target, trailing stop or liquidation the live price already crossed (the live sweep had not run
 * yet) settles the whole position as that trigger, at its level, as the sweep would have.
 */
import { AppError } from '../../core/errors.js';
import {
  closeFacts,
  computeClose,
  crossedTrigger,
  triggeredClose,
  wholeCloseFields,
  WHOLE_CLOSE_FIELDS,
  type SettledClose,
} from '../../engine/close-record.js';
import { largestPartialPct, leavesValidRemainder, marginLeft, MIN_MARGIN_USD } from '../../engine/settlement.js';
import { exitPrice } from '../../engine/slippage.js';
import { CLOSE_REASONS } from '../../engine/triggers.js';
import { baseOf } from '../../market/canonical-symbol.js';
import type { KnownKey } from '../api-key-resolver.js';
import { changeKey, STALE } from '../change-gate.js';
import type { KeyContext } from '../key-context.js';
import type { LivePrice } from '../markets/live-prices.js';
import { fundingOwed, type PositionDeps } from './position-deps.js';
import { refOf } from './position-service.js';
import { jsonAssigner } from './position-json.js';
import type { CloseFacts } from '../../engine/analytics/close-facts.js';
import type { CloseRecord, CloseWrite } from './position-calls.js';
import type { BookRef, Position, StoredPosition } from './position-types.js';
import { closedView, openView, type PositionView } from './position-view.js';

export interface CloseRequest {
  id: string;
  /** Percent of the position to close, 1-100; default 100. */
  pct?: number;
  /** The position's symbol, when the client knows it: its price is read alongside the position. */
  symbol?: string;
  client_order_id?: string;
}

export interface CloseResult {
  ok: true;
  /** The closed position, or the closed part of a partial close. */
  closed: PositionView;
  /** The part that stays open, on a partial close. */
  remaining?: PositionView;
  position: PositionView;
  idempotent: boolean;
}

export interface CloseAllResult {
  ok: true;
  closed: number;
  positions: PositionView[];
  /** Positions left open (no live price for their symbol), with the reason. */
  not_closed?: { id: string; symbol: string; error: string }[];
}

type Settled = SettledClose<Position>;

/** What a close settles from: the position as read (null: not open), its price, and the funding it owes `now`. */
type CloseReads = { read: null } | { read: StoredPosition; live: LivePrice; fundingUsd: number; now: number };

/** A close's reads started from its body as sent, while the key gate runs (the close route's prefetch). */
export class PrefetchedClose {
  constructor(
    readonly ref: BookRef,
    readonly id: string,
    /** undefined when a read failed: the close reads again, and meets the error itself. */
    readonly reads: Promise<CloseReads | undefined>,
  ) {}

  isFor(ref: BookRef, id: string): boolean {
    return this.id === id && this.ref.accountId === ref.accountId && this.ref.book === ref.book;
  }
}

const assignWholeClose = jsonAssigner(WHOLE_CLOSE_FIELDS);

/**
 * A whole close straight to the closed record's JSON: its fields spliced into the position's JSON
 * as read, which gives what serializing computeClose's record gives, without building it (the
 * sweep settles thousands a minute). Pure.
 */
export function wholeCloseJson(
  read: StoredPosition,
  exit: number,
  fundingUsd: number,
  now: number,
  reason: string,
  liquidated: boolean,
): { json: string; cents: number; facts: CloseFacts } {
  const { fields, cents } = wholeCloseFields(read.position, exit, fundingUsd, now, reason, liquidated);
  const json = assignWholeClose(read.raw, fields) ?? JSON.stringify(Object.assign({}, read.position, fields));
  return { json, cents, facts: closeFacts(read.position, fields, cents) };
}

/**
 * Refuses a partial close that would leave less than the minimum margin open (a remainder nobody
 * could have opened): 400 remaining_margin_min_1, naming the largest share that may be closed.
 */
export function checkRemainder(p: Position, pct: number): void {
  if (leavesValidRemainder(p.margin, pct)) return;
  const maxPct = largestPartialPct(p.margin);
  const left = marginLeft(p.margin, pct);
  const instead = maxPct === null ? 'close all of it (pct 100)' : `close at most ${maxPct}% or all of it (pct 100)`;
  throw new AppError(
    'remaining_margin_min_1',
    `closing ${pct}% of position ${p.id} would leave ${left} USD of margin open, below the ${MIN_MARGIN_USD} USD minimum: ${instead}`,
    {
      id: p.id,
      remaining_margin_usd: left,
      min_margin_usd: MIN_MARGIN_USD,
      max_pct: maxPct,
    },
  );
}

/** The script write of a computed close (computeClose). */
export function closeWrite(
  ref: BookRef,
  read: StoredPosition,
  settled: Settled,
  clientOrderId: string | null,
  event: CloseWrite['event'],
): CloseWrite {
  const { closed, remaining, cents } = settled;
  const closedFields = {
    closed_ts: closed.closed_ts ?? 0,
    roe_pct: closed.roe_pct ?? 0,
    fees_usd: closed.fees_usd ?? 0,
    funding_usd: closed.funding_usd ?? 0,
    liquidated: closed.liquidated === true,
  };
  return {
    ref,
    read,
    closed: {
      id: closed.id,
      closed_ts: closed.closed_ts ?? 0,
      json: JSON.stringify(closed),
      facts: closeFacts(closed, closedFields, cents),
    },
    remaining: remaining && JSON.stringify(remaining),
    cents,
    clientOrderId,
    event,
  };
}

export class CloseService {
  constructor(private readonly deps: PositionDeps) {}

  /**
   * The close route's prefetch: the position named in the body as sent, then its price and funding,
   * read while the key gate runs, for a key whose book this process knows; undefined otherwise
   * (close checks it against the validated request and the key's context).
   */
  prefetch(body: unknown, key: KnownKey): PrefetchedClose | undefined {
    if (key.book === undefined || body === null || typeof body !== 'object') return undefined;
    const { id } = body as Record<string, unknown>;
    if (typeof id !== 'string') return undefined;
    const ref: BookRef = { accountId: key.accountId, book: key.book };
    return new PrefetchedClose(
      ref,
      id,
      this.readForClose(ref, id).catch(() => undefined),
    );
  }

  /**
   * `prefetched`: what prefetch started for this request, if anything; its reads stand in for the first ones when they are for this
   * position.
   */
  async close(ctx: KeyContext, req: CloseRequest, reason: string = CLOSE_REASONS.manual, prefetched?: unknown): Promise<CloseResult> {
    const { store, prices } = this.deps;
    const ref = refOf(ctx);
    const coid = req.client_order_id ?? null;
    const pct = req.pct ?? 100;
    if (coid !== null) {
      const prior = await store.findIdempotentClose(ref, coid);
      if (prior) return this.replay(ctx, prior);
    }
    let early = prefetched instanceof PrefetchedClose && prefetched.isFor(ref, req.id) ? await prefetched.reads : undefined;
    // the hint's price is read alongside the position; a wrong hint costs nothing but a second read
    let hinted: Promise<LivePrice | undefined> | undefined =
      !early && req.symbol ? prices.fillPrice(req.symbol).catch(() => undefined) : undefined;
    return this.deps.changes.run(changeKey('position', ref, req.id), `position ${req.id}`, async () => {
      const reads = early ?? (await this.readForClose(ref, req.id, hinted));
      early = undefined;
      if (reads.read === null) throw await this.notOpen(ctx, req.id);
      const { read, live, fundingUsd, now } = reads;
      const trigger = crossedTrigger(read.position, live);
      if (!trigger) checkRemainder(read.position, pct);
      const settled = trigger
        ? triggeredClose(read.position, trigger, fundingUsd, now)
        : computeClose(
            read.position,
            exitPrice(read.position.side, live.price, read.position.exit_slippage_bps),
            pct,
            fundingUsd,
            now,
            reason,
          );
      const event = trigger?.reason === CLOSE_REASONS.liquidation ? 'position.liquidated' : 'position.closed';
      const outcome = await store.close(closeWrite(ref, read, settled, coid, event));
      if (outcome.kind === 'closed') return this.result(settled, live.price, false);
      if (outcome.kind === 'idempotent') return this.replay(ctx, outcome.result);
      if (outcome.kind === 'already_closed') throw new AppError('already_closed', `position ${req.id} is already closed`, { id: req.id });
      if (outcome.kind === 'missing')
        throw new AppError('position_not_found', `no open position ${req.id} in book ${ctx.book}`, { id: req.id });
      hinted = undefined; // stale: read again (the price too: the next attempt should not settle at an old one)
      return STALE;
    });
  }

  /** The position, then its price (unless the hint has it) and the funding it owes, in one round trip. */
  private async readForClose(ref: BookRef, id: string, hinted?: Promise<LivePrice | undefined>): Promise<CloseReads> {
    const { store, prices, clock, funding } = this.deps;
    const [read, hint] = await Promise.all([store.getOpen(ref, id), hinted]);
    if (!read) return { read: null };
    const p = read.position;
    const now = clock.now();
    const [live, fundingUsd] = await Promise.all([
      hint && hint.symbol === p.symbol ? hint : prices.fillPrice(p.symbol),
      fundingOwed(funding, p, now),
    ]);
    return { read, live, fundingUsd, now };
  }

  /** Closes every open position of the book, each in its own step; those without a live price stay open. */
  async closeAll(ctx: KeyContext): Promise<CloseAllResult> {
    const open = await this.deps.store.listOpen(refOf(ctx));
    const outcomes = await Promise.all(
      open.map((stored) =>
        this.close(ctx, { id: stored.position.id, symbol: stored.position.symbol }, CLOSE_REASONS.closeAll).then(
          (result) => ({ stored, result }),
          (error: unknown) => ({ stored, error }),
        ),
      ),
    );
    const positions: PositionView[] = [];
    const notClosed: NonNullable<CloseAllResult['not_closed']> = [];
    for (const outcome of outcomes) {
      if ('result' in outcome) {
        positions.push(outcome.result.closed);
        continue;
      }
      const error = outcome.error;
      // closed meanwhile by another request: not ours to count, nothing left to do
      if (error instanceof AppError && (error.code === 'already_closed' || error.code === 'position_not_found')) continue;
      if (!(error instanceof AppError)) throw error;
      notClosed.push({ id: outcome.stored.position.id, symbol: baseOf(outcome.stored.position.symbol), error: error.code });
    }
    return { ok: true, closed: positions.length, positions, ...(notClosed.length > 0 ? { not_closed: notClosed } : {}) };
  }

  private result(settled: Settled, mark: number, idempotent: boolean): CloseResult {
    const closed = closedView(settled.closed);
    const remaining = settled.remaining
      ? openView(settled.remaining, { price: mark, stale: false }, settled.remaining.funding_carry_usd)
      : undefined;
    return { ok: true, closed, ...(remaining ? { remaining } : {}), position: closed, idempotent };
  }

  /** The stored result of a close whose client_order_id came again: the closed record and the remaining part as it stands. */
  private async replay(ctx: KeyContext, record: CloseRecord): Promise<CloseResult> {
    const ref = refOf(ctx);
    const [closed, remaining] = await Promise.all([
      this.deps.store.getClosed(ref, record.closed_id),
      record.remaining_id ? this.remainingNow(ctx, record.remaining_id) : undefined,
    ]);
    if (!closed)
      throw new AppError('already_closed', `the close with this client_order_id was archived by a reset`, { id: record.closed_id });
    const view = closedView(closed.position);
    return { ok: true, closed: view, ...(remaining ? { remaining } : {}), position: view, idempotent: true };
  }

  private async remainingNow(ctx: KeyContext, id: string): Promise<PositionView | undefined> {
    const ref = refOf(ctx);
    const stored: StoredPosition | null = (await this.deps.store.getOpen(ref, id)) ?? (await this.deps.store.getClosed(ref, id));
    if (!stored) return undefined;
    if (stored.position.status !== 'open') return closedView(stored.position);
    const [marks, fundingUsd] = await Promise.all([
      this.deps.prices.marks([stored.position.symbol]),
      fundingOwed(this.deps.funding, stored.position, this.deps.clock.now()),
    ]);
    return openView(stored.position, marks.get(stored.position.symbol), fundingUsd);
  }

  private async notOpen(ctx: KeyContext, id: string): Promise<AppError> {
    const closed = await this.deps.store.getClosed(refOf(ctx), id);
    if (closed) return new AppError('already_closed', `position ${id} is already closed`, { id });
    return new AppError('position_not_found', `no open position ${id} in book ${ctx.book}`, { id });
  }
}
