import { expect } from 'chai';
import fc from 'fast-check';
import {
  closeFacts,
  computeClose,
  crossedTrigger,
  triggeredClose,
  wholeCloseFields,
  WHOLE_CLOSE_FIELDS,
} from '../../shared/engine/close-record.js';
import { settle } from '../../shared/engine/settlement.js';
import { trimNumber } from '../../shared/engine/side.js';

/** A position as the engine sees it: only what a close reads, plus one field of the store's own that must ride along. */
const position = {
  id: 'p1',
  v: 3,
  symbol: 'ETHUSDT',
  side: 'long' as const,
  entry: 100,
  qty: 2,
  margin: 20,
  leverage: 10,
  opened_ts: 1_000,
  fee_rate_pct: 0.05,
  fee_open_usd: 0.1,
  fee_round_trip_usd: 0.2,
  sl: 95,
  tp: 120,
  trail_pct: null,
  trail_hwm: null,
  liq_price: 90.5,
  note: 'kept',
};

describe('the close record (shared/engine/close-record.ts, pure)', () => {
  it('a whole close sets its fields in the record order, from the settlement', () => {
    const { fields, cents } = wholeCloseFields(position, 110, 0.5, 5_000, 'manual', false);
    const s = settle({ side: 'long', qty: 2, entry: 100, exit: 110, ratePct: 0.05, fundingUsd: 0.5, margin: 20 });
    expect(Object.keys(fields)).to.deep.equal([...WHOLE_CLOSE_FIELDS]);
    expect(cents).to.equal(Math.round(s.pnl * 100));
    expect(fields).to.deep.include({ status: 'closed', exit: 110, closed_ts: 5_000, v: 4, pnl_usd: cents / 100, funding_usd: 0.5 });
    expect(fields.roe_pct).to.equal(trimNumber((cents / 100 / 20) * 100));
    const whole = computeClose(position, 110, 100, 0.5, 5_000, 'manual');
    expect(whole.remaining).to.equal(null);
    expect(whole.closed).to.deep.equal({ ...position, ...fields });
    expect(whole.closed.note).to.equal('kept');
  });

  it('a partial close splits quantity and margin, names the part after the position and version, and keeps the rest', () => {
    const { closed, remaining, cents } = computeClose(position, 110, 25, 0.4, 5_000, 'manual');
    expect(closed).to.include({ id: 'p1-3', parent_id: 'p1', partial_pct: 25, v: 1, status: 'closed', note: 'kept' });
    expect(remaining).to.include({ id: 'p1', v: 4, funding_from_ts: 5_000, note: 'kept' });
    expect(closed.qty + remaining!.qty).to.be.closeTo(2, 1e-12);
    expect(closed.margin + remaining!.margin).to.be.closeTo(20, 1e-12);
    expect(closed.fee_open_usd + remaining!.fee_open_usd).to.be.closeTo(0.1, 1e-12);
    expect(cents).to.equal(Math.round((closed as unknown as { pnl_usd: number }).pnl_usd * 100));
  });

  it('in general: the parts of a partial close add up to the position', () => {
    fc.assert(
      fc.property(fc.double({ min: 1, max: 99, noNaN: true }), fc.double({ min: 50, max: 150, noNaN: true }), (pct, exit) => {
        const { closed, remaining } = computeClose(position, exit, pct, 0, 5_000, 'manual');
        return Math.abs(closed.qty + remaining!.qty - 2) < 1e-9 && Math.abs(closed.margin + remaining!.margin - 20) < 1e-9;
      }),
    );
  });

  it('a crossed stop settles the whole position at its level; a liquidation is marked as one', () => {
    expect(crossedTrigger(position, { price: 100, ts: 2_000 })).to.equal(null);
    const stop = crossedTrigger(position, { price: 94, ts: 2_000 });
    expect(stop).to.deep.equal({ reason: 'stop_loss', price: 95 });
    expect(triggeredClose(position, stop!, 0, 2_000).closed).to.include({ exit: 95, close_reason: 'stop_loss', liquidated: false });
    const liq = triggeredClose(position, { reason: 'liquidation', price: 90.5 }, 0, 2_000);
    expect(liq.closed).to.include({ exit: 90.5, close_reason: 'liquidation', liquidated: true });
  });

  it('the read models take their facts from the closed record', () => {
    const { fields, cents } = wholeCloseFields(position, 110, 0, 5_000, 'manual', false);
    expect(closeFacts(position, fields, cents)).to.deep.equal({
      symbol: 'ETHUSDT',
      side: 'long',
      leverage: 10,
      margin: 20,
      opened_ts: 1_000,
      closed_ts: 5_000,
      cents,
      roe_pct: fields.roe_pct,
      fees_usd: fields.fees_usd,
      funding_usd: 0,
      liquidated: false,
    });
  });
});
