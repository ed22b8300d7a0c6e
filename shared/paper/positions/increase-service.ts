/**
 * Adding to an open position (shared/engine/increase.ts), once per client order id: the added leg is filled by the
 * book's simulation profile as an open's fill is (slippage, depth, partial fills), and the increase applies only to the
 * position as read, behind the position's change gate (a lost race reads and computes again).
 */
import { AppError } from '../../core/errors.js';
import { increase } from '../../engine/increase.js';
import { isMajor } from '../../engine/majors.js';
import { modelEntry, type ModelledEntry } from '../../engine/realism.js';
import { MIN_MARGIN_USD } from '../../engine/settlement.js';
import type { SimProfile } from '../../engine/sim-profile.js';
import { entryTrade } from '../../engine/slippage.js';
import { toCents } from '../../engine/side.js';
import { changeKey, STALE } from '../change-gate.js';
import type { KeyContext } from '../key-context.js';
import type { EntryPrice } from '../markets/live-prices.js';
import { crossedTrigger } from '../../engine/close-record.js';
import type { AddedLeg, IncreaseRecord, IncreaseStore } from './increase-store.js';
import { checkLeverage } from './position-builder.js';
import { withAddedLeg } from './position-legs.js';
import { fundingOwed, type PositionDeps } from './position-deps.js';
import { checkNotional, refOf } from './position-service.js';
import type { Position, StoredPosition } from './position-types.js';
import { openView, type PositionView } from './position-view.js';

export interface IncreaseRequest {
  id: string;
  /** Base-asset quantity to add. */
  qty: number;
  /** The leverage the added leg is margined at. */
  leverage: number;
  client_order_id?: string;
}

export interface IncreaseResult {
  ok: true;
  position: PositionView;
  /** The added leg: its fill price and quantity (the profile may fill part of it). */
  added: AddedLeg;
  /** The position's version the increase made (one per change): names the increase. */
  v: number;
  idempotent: boolean;
}

export class IncreaseService {
  constructor(
    private readonly deps: PositionDeps,
    private readonly increases: IncreaseStore,
  ) {}

  async increase(ctx: KeyContext, req: IncreaseRequest): Promise<IncreaseResult> {
    const ref = refOf(ctx);
    const coid = req.client_order_id ?? null;
    if (coid !== null) {
      const prior = await this.increases.findIdempotent(ref, coid);
      if (prior) return this.answer(prior, true);
    }
    const profile = await this.deps.sim.profileOf(ctx);
    return this.deps.changes.run(changeKey('position', ref, req.id), `position ${req.id}`, async () => {
      const read = await this.deps.store.getOpen(ref, req.id);
      if (!read) throw await this.notOpen(ctx, req.id);
      const p = read.position;
      const now = this.deps.clock.now();
      const [fill, owed] = await Promise.all([this.deps.prices.settledEntryPrice(p.symbol), fundingOwed(this.deps.funding, p, now)]);
      if ('error' in fill) throw fill.error;
      const updated = await this.priced(read, fill.value, req, profile, owed, now);
      const outcome = await this.increases.increase({
        ref,
        read,
        updated: updated.position,
        added: updated.added,
        addedMarginCents: toCents(updated.addedMargin),
        clientOrderId: coid,
        enforceMargin: profile.margin_enforced,
        now,
      });
      if (outcome.kind === 'increased')
        return this.answer({ added: updated.added, position: outcome.stored.position }, false, fill.value.price);
      if (outcome.kind === 'idempotent') return this.answer(outcome.record, true);
      if (outcome.kind === 'gone') throw await this.notOpen(ctx, req.id);
      if (outcome.kind === 'budget') {
        throw new AppError('insufficient_margin', `this increase needs ${updated.addedMargin} USD of margin and the book has less free`, {
          required_margin_usd: updated.addedMargin,
          free_margin_usd: outcome.freeCents / 100,
          margin_in_use_usd: outcome.inUseCents / 100,
          balance_usd: outcome.balanceCents / 100,
        });
      }
      return STALE;
    });
  }

  /** The increased position of the position as read, its added leg filled by the profile at the live price. */
  private async priced(read: StoredPosition, live: EntryPrice, req: IncreaseRequest, profile: SimProfile, owed: number, now: number) {
    const p = read.position;
    checkLeverage(p.symbol, req.leverage, Math.min(live.maxLeverage, profile.leverage_max));
    // a price past one of its own triggers: the position is being settled there, not added to
    if (crossedTrigger(p, live))
      throw new AppError('position_triggered', `position ${p.id} has reached a stop, target or liquidation and is being settled`, {
        id: p.id,
      });
    const model = await this.model(p, live, req, profile);
    const addQty = (model.margin * req.leverage) / model.price;
    const out = increase(p, { addQty, fillPrice: model.price, leverage: req.leverage, now, fundingOwed: owed });
    if (!out.ok) {
      throw new AppError('insufficient_margin', `the position with this added would be liquidated at once (at ${out.liqPrice})`, {
        liq_price: out.liqPrice,
        hint: 'add at a lower leverage, or less',
      });
    }
    checkNotional(out.fields.notional_usd, profile.max_notional_usd);
    // each add is a fill of its own (Binance's userTrades lists one per leg)
    const leg = { qty: addQty, price: model.price, fee: out.addedFee, ts: now, v: p.v + 1 };
    const position: Position = { ...p, ...out.fields, v: p.v + 1, legs: withAddedLeg(p, leg) };
    return { position, addedMargin: out.addedMargin, added: { price: model.price, qty: addQty } };
  }

  private async model(p: Position, live: EntryPrice, req: IncreaseRequest, profile: SimProfile): Promise<ModelledEntry> {
    const margin = (req.qty * live.price) / req.leverage;
    if (margin < MIN_MARGIN_USD)
      throw new AppError('margin_usd_min_1', `adding ${req.qty} takes ${margin} USD of margin, below the ${MIN_MARGIN_USD} USD minimum`, {
        min_margin_usd: MIN_MARGIN_USD,
      });
    const book =
      profile.impact_bps_per_100k === 'book' && isMajor(p.symbol) ? await this.deps.depth.side(p.symbol, entryTrade(p.side)) : undefined;
    const model = modelEntry({
      profile,
      symbol: p.symbol,
      assetClass: p.asset_class,
      side: p.side,
      reference: live.price,
      margin,
      leverage: req.leverage,
      tablePct: p.fee_rate_pct,
      book,
    });
    if (!model.ok || model.margin < MIN_MARGIN_USD) {
      const fillPct = model.ok ? model.fill.fill_pct : model.fillPct;
      throw new AppError(
        'fill_below_min',
        `the modelled depth takes ${fillPct.toFixed(2)}% of this increase, below the book's min_fill_pct`,
        {
          fill_pct: fillPct,
          min_fill_pct: profile.min_fill_pct,
        },
      );
    }
    return model;
  }

  /** The position as the increase left it (a retry: as the first one left it) and its added leg. */
  private answer({ added, position: p }: IncreaseRecord, idempotent: boolean, mark?: number): IncreaseResult {
    const view = openView(p, mark === undefined ? undefined : { price: mark, stale: false }, p.funding_carry_usd);
    return { ok: true, position: view, added, v: p.v, idempotent };
  }

  private async notOpen(ctx: KeyContext, id: string): Promise<AppError> {
    const closed = await this.deps.store.getClosed(refOf(ctx), id);
    if (closed) return new AppError('already_closed', `position ${id} is already closed`, { id });
    return new AppError('position_not_found', `no open position ${id} in book ${ctx.book}`, { id });
  }
}
