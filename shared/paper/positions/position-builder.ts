/** What market opens and resting-order fills share: the entry checks, the pricing, and the position they build. */
import { AppError } from '../../core/errors.js';
import { baseTakerPct, cappedRatePct, CLASS_TAKER_PCT, type AssetClass, type FeeVenue } from '../../engine/fees.js';
import { checkLevels, priceOpen, type PricedOpen } from '../../engine/open-pricing.js';
import { takerBasePct } from '../../engine/cost-model.js';
import type { ModelledEntry } from '../../engine/realism.js';
import { roundUsd, trimNumber, type Side } from '../../engine/side.js';
import { effectiveStop } from '../../engine/trailing.js';
import { baseOf } from '../../market/canonical-symbol.js';
import type { Position } from './position-types.js';

/** The terms of an entry, whatever fills it. */
export interface EntryTerms {
  symbol: string;
  assetClass: AssetClass;
  side: Side;
  margin: number;
  leverage: number;
  sl: number | null;
  tp: number | null;
  /** null: no trailing stop. */
  trailPct: number | null;
  /** The fee venue (crypto only), undefined for the class rates. */
  venue: FeeVenue | undefined;
  mmrPct?: number;
  /** The cost model of a resting entry (its book's taker_bps and funding multiplier at placement); absent: the tables, 1. */
  takerBps?: number;
  fundingMult?: number;
}

export interface PricedEntry {
  priced: PricedOpen;
  /** The venue that set the rate (undefined when the class rate applies). */
  venue: FeeVenue | undefined;
  /** The simulation profile's fill, when one priced it. */
  model?: ModelledEntry;
}

/** What a position keeps of the profile's fill (position-types.ts): only what differs from the engine defaults, but always its realism. */
function modelStamp(model: ModelledEntry): Partial<Position> {
  const stamp: Partial<Position> = {
    realism: model.realism,
    slippage_bps: trimNumber(model.slippageBps),
    slippage_usd: trimNumber(model.slippageUsd),
  };
  if (model.price !== model.quoted) stamp.quoted_price = model.quoted;
  if (model.maintenance.tier !== null) stamp.mmr_tier = model.maintenance.tier;
  if (model.exitSlippageBps !== null) stamp.exit_slippage_bps = model.exitSlippageBps;
  if (model.fundingMult !== 1) stamp.funding_mult = model.fundingMult;
  if (model.fill.partial) {
    stamp.fill_pct = model.fill.fill_pct;
    stamp.requested_margin_usd = model.fill.requested_margin_usd;
  }
  return stamp;
}

/**
 * 400 leverage_max (with max and requested) above the symbol's cap. Checked where an entry is
 * requested (open, placement, modify), not where a resting order fills: the cap moves with the
 * symbol's volume, and an order accepted under it fills as accepted.
 */
export function checkLeverage(symbol: string, leverage: number, max: number): void {
  if (leverage > max) {
    const ticker = baseOf(symbol);
    throw new AppError('leverage_max', `leverage ${leverage} is above the ${max}x cap of ${ticker}`, {
      symbol: ticker,
      max,
      requested: leverage,
      hint: `send leverage between 1 and ${max}`,
    });
  }
}

/** 400 sl_wrong_side / tp_wrong_side when a level is on the wrong side of the entry (`live` names the entry). */
export function checkEntryLevels(
  side: Side,
  entry: number,
  sl: number | null | undefined,
  tp: number | null | undefined,
  entryName = 'the entry',
): void {
  const wrong = checkLevels(side, entry, sl, tp);
  if (!wrong) return;
  const level = wrong === 'sl_wrong_side' ? 'stop-loss' : 'take-profit';
  const where = (wrong === 'sl_wrong_side') === (side === 'long') ? 'below' : 'above';
  throw new AppError(wrong, `the ${level} of a ${side} must be ${where} ${entryName} (${entry})`, { live: entry });
}

/**
 * Checks the levels against `entry`, and prices the entry there; `model`: the fill the book's
 * simulation profile made (its price, margin, taker base and maintenance rate win over the terms').
 */
export function priceEntry(terms: EntryTerms, entry: number, entryName?: string, model?: ModelledEntry): PricedEntry {
  const base = baseTakerPct(terms.assetClass, terms.venue);
  const priced = priceOpen({
    side: terms.side,
    entry: model ? model.price : entry,
    margin: model ? model.margin : terms.margin,
    leverage: terms.leverage,
    baseRatePct: model ? model.basePct : takerBasePct(base.ratePct, terms.takerBps ?? null),
    flatMmrPct: model ? model.maintenance.mmrPct : terms.mmrPct,
  });
  checkEntryLevels(terms.side, priced.entry, terms.sl, terms.tp, entryName);
  return { priced, venue: base.venue, model };
}

/** The priced trade a dry run answers (no id: nothing is written); `maxLeverage`: the symbol's cap. */
export function dryRunPosition(terms: EntryTerms, entry: PricedEntry, maxLeverage: number): Record<string, unknown> {
  const { priced, venue, model } = entry;
  const margin = model ? model.margin : terms.margin;
  const defaultRate = cappedRatePct(CLASS_TAKER_PCT[terms.assetClass], terms.leverage);
  // what the venue saves (negative) or costs over the class rate on the round trip
  const vsDefault = trimNumber(priced.feeRoundTrip - (2 * priced.notional * defaultRate) / 100);
  return {
    symbol: baseOf(terms.symbol),
    asset_class: terms.assetClass,
    side: terms.side,
    entry: priced.entry,
    entry_price: priced.entry,
    qty: priced.qty,
    quantity: priced.qty,
    margin,
    margin_usd: margin,
    leverage: terms.leverage,
    leverage_max: maxLeverage,
    notional_usd: roundUsd(priced.notional),
    liq_price: trimNumber(priced.liqPrice),
    liq_distance_pct: trimNumber(priced.liqDistancePct),
    mmr_pct: trimNumber(priced.mmrPct),
    fee_open_usd: trimNumber(priced.feeOpen),
    fee_round_trip_usd: trimNumber(priced.feeRoundTrip),
    fee_rate_pct: trimNumber(priced.ratePct),
    taker_fee_pct: trimNumber(priced.ratePct),
    // as a position shows them (position-view.ts): the stop in force, trail_pct only when it trails
    sl: effectiveStop({ side: terms.side, sl: terms.sl, trail_pct: terms.trailPct, trail_hwm: priced.entry }),
    ...(terms.trailPct === null ? {} : { trail_pct: terms.trailPct }),
    tp: terms.tp,
    fee_venue: venue?.venue ?? null,
    // the spec's name and the original's
    ...(venue ? { fee_vs_marginpad_default_usd: vsDefault, fee_vs_default_usd: vsDefault } : {}),
    ...(model ? modelStamp(model) : {}),
  };
}

/** Who and when: the fields of a new position that do not come from its terms. */
export interface PositionStamp {
  id: string;
  book: string;
  /** When it opened (a market open: now; an order fill: the minute the market reached the level). */
  openedTs: number;
  clientOrderId: string | null;
}

/** A new open position (version 1) as stored. */
export function buildPosition(terms: EntryTerms, entry: PricedEntry, stamp: PositionStamp): Position {
  const { priced, venue, model } = entry;
  const margin = model ? model.margin : terms.margin;
  const position: Position = {
    id: stamp.id,
    v: 1,
    account: stamp.book,
    symbol: terms.symbol,
    asset_class: terms.assetClass,
    side: terms.side,
    status: 'open',
    entry: priced.entry,
    qty: priced.qty,
    margin,
    leverage: terms.leverage,
    notional_usd: roundUsd(priced.notional),
    liq_price: trimNumber(priced.liqPrice),
    mmr_pct: trimNumber(priced.mmrPct),
    sl: terms.sl,
    tp: terms.tp,
    trail_pct: terms.trailPct,
    trail_hwm: terms.trailPct === null ? null : priced.entry,
    fee_rate_pct: trimNumber(priced.ratePct),
    fee_venue: venue?.venue ?? null,
    fee_open_usd: trimNumber(priced.feeOpen),
    fee_round_trip_usd: trimNumber(priced.feeRoundTrip),
    opened_ts: stamp.openedTs,
    client_order_id: stamp.clientOrderId,
    source: 'api',
    funding_carry_usd: 0,
    funding_from_ts: stamp.openedTs,
    levels_ts: stamp.openedTs,
  };
  if (model) return Object.assign(position, modelStamp(model));
  if (terms.fundingMult !== undefined && terms.fundingMult !== 1) position.funding_mult = terms.fundingMult;
  return position;
}
