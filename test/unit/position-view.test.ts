import { expect } from 'chai';
import fc from 'fast-check';
import { settle } from '../../shared/engine/settlement.js';
import { effectiveStop } from '../../shared/engine/trailing.js';
import { roundUsd, trimNumber } from '../../shared/engine/side.js';
import { computeClose } from '../../shared/engine/close-record.js';
import type { Position } from '../../shared/paper/positions/position-types.js';
import { closedView, openView } from '../../shared/paper/positions/position-view.js';

const INTERNAL = ['v', 'funding_carry_usd', 'funding_from_ts', 'trail_ts', 'trail_prev_hwm', 'trail_prev_ts', 'levels_ts', 'levels_prev'];

/** Stored (canonical) symbols and the spec's ticker a client sees for each, one per asset class. */
const TICKERS: Readonly<Record<string, string>> = {
  BTCUSDT: 'BTC',
  '1000PEPEUSDT': '1000PEPE',
  XAUUSDT: 'XAU',
  EURUSDT: 'EUR',
  TSLAUSDT: 'TSLA',
  SPX500USDT: 'SPX500',
};

/**
 * What a client must see of a record: every stored field but the internal ones, as stored, except the symbol (its
 * ticker), sl (the stop in force: the tighter of the client's stop and the trailing level) and trail_pct (absent when
 * the position does not trail); plus the original's names of entry, margin, fee_open_usd and exit.
 */
function publicPart(p: Position): Record<string, unknown> {
  const part: Record<string, unknown> = Object.fromEntries(Object.entries(p).filter(([key]) => !INTERNAL.includes(key)));
  part.symbol = TICKERS[p.symbol];
  part.sl = effectiveStop(p);
  if (p.trail_pct === null) delete part.trail_pct;
  part.entry_price = p.entry;
  part.margin_usd = p.margin;
  part.feeOpen = p.fee_open_usd;
  if (p.exit !== undefined) part.exit_price = p.exit;
  return part;
}

const price = fc.double({ min: 0.0001, max: 100_000, noNaN: true });
const level = fc.option(price, { nil: null });

const openPosition: fc.Arbitrary<Position> = fc
  .record({
    symbol: fc.constantFrom(...Object.keys(TICKERS)),
    side: fc.constantFrom('long' as const, 'short' as const),
    entry: price,
    qty: fc.double({ min: 0.000001, max: 1_000, noNaN: true }),
    margin: fc.double({ min: 1, max: 100_000, noNaN: true }),
    leverage: fc.integer({ min: 1, max: 1000 }),
    sl: level,
    tp: level,
    trail_pct: fc.option(fc.double({ min: 0.1, max: 50, noNaN: true }), { nil: null }),
    fee_rate_pct: fc.double({ min: 0, max: 0.1, noNaN: true }),
    fee_venue: fc.option(fc.constantFrom('binance', 'bybit'), { nil: null }),
    client_order_id: fc.option(fc.string({ minLength: 1, maxLength: 12 }), { nil: null }),
    opened_ts: fc.integer({ min: 1_600_000_000_000, max: 1_900_000_000_000 }),
    trail_ts: fc.option(fc.integer({ min: 1_600_000_000_000, max: 1_900_000_000_000 }), { nil: undefined }),
    funding_carry_usd: fc.double({ min: 0, max: 50, noNaN: true }),
    levels_changed: fc.boolean(),
  })
  .map((r) => {
    const position: Position = {
      id: 'bp1a2b3c4d',
      v: 2,
      account: 'main',
      symbol: r.symbol,
      asset_class: 'crypto',
      side: r.side,
      status: 'open',
      entry: r.entry,
      qty: r.qty,
      margin: r.margin,
      leverage: r.leverage,
      notional_usd: roundUsd(r.qty * r.entry),
      liq_price: r.entry / 2,
      mmr_pct: 0.5,
      sl: r.sl,
      tp: r.tp,
      trail_pct: r.trail_pct,
      trail_hwm: r.trail_pct === null ? null : r.entry,
      levels_ts: r.opened_ts,
      fee_rate_pct: r.fee_rate_pct,
      fee_venue: r.fee_venue,
      fee_open_usd: 0.5,
      fee_round_trip_usd: 1,
      opened_ts: r.opened_ts,
      client_order_id: r.client_order_id,
      source: 'api',
      funding_carry_usd: r.funding_carry_usd,
      funding_from_ts: r.opened_ts,
    };
    const levels = r.levels_changed
      ? { levels_ts: r.opened_ts + 90_000, levels_prev: { sl: null, tp: r.tp, trail_pct: null, ts: r.opened_ts } }
      : {};
    return r.trail_ts === undefined
      ? { ...position, ...levels }
      : { ...position, ...levels, trail_ts: r.trail_ts, trail_prev_hwm: r.entry, trail_prev_ts: r.opened_ts };
  });

describe('position views: what clients see of a position', () => {
  it('an open position at a mark: every public field as stored, none of the internal ones, and what a close at the mark would settle', () => {
    fc.assert(
      fc.property(openPosition, price, fc.double({ min: 0, max: 50, noNaN: true }), fc.boolean(), (p, mark, funding, stale) => {
        const view = openView(p, { price: mark, stale }, funding);
        const s = settle({
          side: p.side,
          qty: p.qty,
          entry: p.entry,
          exit: mark,
          ratePct: p.fee_rate_pct,
          fundingUsd: funding,
          margin: p.margin,
        });
        expect(view).to.deep.equal({
          ...publicPart(p),
          funding_usd: roundUsd(funding),
          mark_price: mark,
          ...(stale ? { mark_stale: true } : {}),
          unrealized_pnl_usd: roundUsd(s.pnl),
          fees_usd: trimNumber(s.fees),
          fee_round_trip_usd: trimNumber(s.fees),
        });
        expect(view).to.not.have.any.keys(...INTERNAL);
      }),
    );
  });

  it('an open position without a price: nulls where the mark would be, the round trip as estimated at open', () => {
    fc.assert(
      fc.property(openPosition, (p) => {
        expect(openView(p, undefined, 0)).to.deep.equal({
          ...publicPart(p),
          funding_usd: 0,
          mark_price: null,
          unrealized_pnl_usd: null,
          fees_usd: roundUsd(p.fee_round_trip_usd),
        });
      }),
    );
  });

  it('a closed record, whole or a closed part: every public field as stored, the close fields included, none of the internal ones', () => {
    fc.assert(
      fc.property(openPosition, price, fc.integer({ min: 1, max: 100 }), (p, exit, pct) => {
        const { closed } = computeClose(p, exit, pct, 0, p.opened_ts + 60_000, 'manual');
        const view = closedView(closed);
        expect(view).to.deep.equal(publicPart(closed));
        expect(closed).to.not.have.any.keys('entry_price', 'margin_usd', 'exit_price', 'feeOpen');
        expect(view).to.include.keys('exit', 'exit_price', 'closed_ts', 'close_reason', 'liquidated');
        expect(view).to.include.keys('pnl_usd', 'roe_pct', 'fees_usd', 'funding_usd');
        if (pct < 100) expect(view).to.include({ partial_pct: pct, parent_id: p.id });
        expect(view).to.not.have.any.keys(...INTERNAL);
      }),
    );
  });
});
