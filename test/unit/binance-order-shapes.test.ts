import { expect } from 'chai';
import fc from 'fast-check';
import { planEntry, planLevel } from '../../shared/binance/order-plan.js';
import {
  algoShape,
  closingOrderId,
  levelOrder,
  orderShape,
  parseLevelId,
  positionFills,
  positionIncome,
  restingOrder,
} from '../../shared/binance/order-shapes.js';
import type { Order } from '../../shared/paper/orders/order-types.js';
import type { Position } from '../../shared/paper/positions/position-types.js';

const long = { id: 'bp1', side: 'long' as const, qty: 0.02 };
const plain = { reduceOnly: false, closePosition: false };

/** A long of 0.01 BTC at 65000, 10x, taker 0.055 %. */
function position(over: Partial<Position> = {}): Position {
  return {
    id: 'p1',
    v: 1,
    account: 'main',
    symbol: 'BTCUSDT',
    asset_class: 'crypto',
    side: 'long',
    status: 'open',
    entry: 65000,
    qty: 0.01,
    margin: 65,
    leverage: 10,
    notional_usd: 650,
    liq_price: 58825,
    mmr_pct: 0.5,
    sl: null,
    tp: null,
    trail_pct: null,
    trail_hwm: null,
    fee_rate_pct: 0.055,
    fee_venue: null,
    fee_open_usd: 0.3575,
    fee_round_trip_usd: 0.715,
    opened_ts: 1_000,
    client_order_id: null,
    source: 'api',
    funding_carry_usd: 0,
    funding_from_ts: 1_000,
    ...over,
  };
}

describe('Binance orders, fills and income from the engine (pure)', () => {
  it('a resting entry opens only where a MARKET would open; one that would shrink or add to a position is refused', () => {
    expect(planEntry({ side: 'BUY', quantity: 0.01, ...plain }, [])).to.deep.equal({ kind: 'open', side: 'long', quantity: 0.01 });
    expect(planEntry({ side: 'SELL', quantity: 0.01, ...plain }, [long])).to.deep.equal({ kind: 'refuse', reason: 'resting_reduce' });
    expect(planEntry({ side: 'BUY', quantity: 0.01, ...plain }, [long])).to.deep.include({ reason: 'add_unsupported' });
  });

  it('a conditional exit is a level of the whole position: closePosition or its size; a part, the wrong side or none refused', () => {
    expect(planLevel({ side: 'SELL', reduceOnly: false, closePosition: true }, [long])).to.deep.equal({ kind: 'level', id: 'bp1' });
    expect(planLevel({ side: 'SELL', quantity: 0.02, ...plain }, [long])).to.deep.equal({ kind: 'level', id: 'bp1' });
    expect(planLevel({ side: 'SELL', quantity: 0.01, ...plain }, [long])).to.deep.include({ reason: 'partial_level' });
    expect(planLevel({ side: 'BUY', quantity: 0.02, ...plain }, [long])).to.deep.include({ reason: 'reduce_only_rejected' });
    expect(planLevel({ side: 'SELL', quantity: 0.02, ...plain }, [])).to.deep.include({ reason: 'reduce_only_rejected' });
  });

  it('a resting entry the engine answers with its coin (BTC) names the pair', () => {
    const order = { order_id: 'o1', symbol: 'BTC', side: 'long', type: 'limit', status: 'open', limit_price: 60000 };
    const fields = restingOrder({ ...order, margin_usd: 60, leverage: 10, placed_ts: 1_000 } as unknown as Order);
    expect(fields).to.deep.include({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', price: 60000, origQty: 0.01 });
  });

  it("names a level's order by position and level, NEW while set, FILLED once it closed the position, CANCELED once cleared", () => {
    const set = levelOrder(position({ sl: 62000 }), 'sl', undefined, 5_000);
    expect(set).to.deep.include({ orderId: 'p1-SL', status: 'NEW', type: 'STOP_MARKET', side: 'SELL', stopPrice: 62000 });
    expect(parseLevelId(set.orderId)).to.deep.equal({ positionId: 'p1', level: 'sl' });
    const fired = position({ status: 'closed', close_reason: 'stop_loss', exit: 62000, closed_ts: 9_000 });
    expect(levelOrder(fired, 'sl', 'bot-1', 10_000)).to.deep.include({ status: 'FILLED', avgPrice: 62000, clientOrderId: 'bot-1' });
    expect(closingOrderId(fired)).to.equal('p1-SL');
    expect(closingOrderId({ id: 'p2', close_reason: 'manual' })).to.equal('p2-C');
    expect(levelOrder(position(), 'tp', undefined, 5_000).status).to.equal('CANCELED');
    expect(algoShape(orderShape(levelOrder(fired, 'sl', undefined, 10_000)))).to.deep.include({ algoId: 'p1-SL', algoStatus: 'FINISHED' });
  });

  it('fills pay the position its fees and earn its price move; income adds up to what the balance settled', () => {
    fc.assert(
      fc.property(
        fc.constantFrom<'long' | 'short'>('long', 'short'),
        fc.double({ min: 1, max: 200_000, noNaN: true }),
        fc.double({ min: 0.5, max: 1.5, noNaN: true }),
        fc.double({ min: 0, max: 5, noNaN: true }),
        (side, entry, move, funding) => {
          const qty = 0.01;
          const exit = entry * move;
          const feeOpen = (entry * qty * 0.055) / 100;
          const fees = feeOpen + (exit * qty * 0.055) / 100;
          const margin = (entry * qty) / 10;
          const gross = (side === 'long' ? 1 : -1) * (exit - entry) * qty;
          const pnl = Math.max(-margin, Math.round((gross - fees - funding) * 100) / 100);
          const closed = position({
            side,
            entry,
            qty,
            margin,
            fee_open_usd: feeOpen,
            status: 'closed',
            exit,
            closed_ts: 2_000,
            pnl_usd: pnl,
            fees_usd: fees,
            funding_usd: funding,
            close_reason: 'manual',
          });
          const [open, close] = positionFills(closed);
          expect(open.commission + close.commission).to.be.closeTo(fees, 1e-9);
          expect([open.side, close.side]).to.deep.equal(side === 'long' ? ['BUY', 'SELL'] : ['SELL', 'BUY']);
          const income = positionIncome(closed).reduce((sum, row) => sum + Number(row.income), 0);
          // the balance moves by pnl_usd, the net in cents; a loss floored at the margin shows the gross that makes it
          expect(income).to.be.closeTo(pnl, pnl <= -margin ? 1e-6 : 0.005 + 1e-6);
          if (pnl > -margin) expect(close.realizedPnl).to.be.closeTo(gross, 1e-9);
        },
      ),
    );
  });

  it('an increased position has one open fill per leg; a closed part scales them to its quantity and entry fee', () => {
    const legs = [
      { qty: 0.01, price: 65000, fee: 0.3575, ts: 1_000, v: 0 },
      { qty: 0.02, price: 66000, fee: 0.726, ts: 2_000, v: 2 },
    ];
    const added = position({ qty: 0.03, entry: 65666.67, fee_open_usd: 1.0835, legs });
    expect(positionFills(added).map((f) => [f.id, f.orderId, f.price, f.qty, f.commission, f.time])).to.deep.equal([
      ['p1-O', 'p1', 65000, 0.01, 0.3575, 1_000],
      ['p1-O-ADD2', 'p1-ADD2', 66000, 0.02, 0.726, 2_000],
    ]);
    const part = { ...added, id: 'p1-3', parent_id: 'p1', qty: 0.015, fee_open_usd: 0.54175, status: 'closed' as const, exit: 66000 };
    const fills = positionFills({ ...part, closed_ts: 3_000, pnl_usd: 4, fees_usd: 1.08625, funding_usd: 0 });
    expect(fills.map((f) => [f.id, f.orderId, f.qty])).to.deep.equal([
      ['p1-3-O', 'p1', 0.005],
      ['p1-3-O-ADD2', 'p1-ADD2', 0.01],
      ['p1-3-C', 'p1-3-C', 0.015],
    ]);
    expect(fills[0].commission + fills[1].commission).to.be.closeTo(0.54175, 1e-9);
  });

  it("an open position's fill is its entry with the entry fee, and no income yet", () => {
    expect(positionFills(position())).to.deep.equal([
      {
        id: 'p1-O',
        orderId: 'p1',
        symbol: 'BTCUSDT',
        qty: 0.01,
        side: 'BUY',
        price: 65000,
        commission: 0.3575,
        realizedPnl: 0,
        time: 1_000,
      },
    ]);
    expect(positionIncome(position({ status: 'closed', pnl_usd: 0, fees_usd: 0, funding_usd: 0, exit: 65000 }))).to.deep.equal([]);
  });
});
