import { expect } from 'chai';
import fc from 'fast-check';
import { planOrder } from '../../shared/binance/order-plan.js';

const long = { id: 'bp1', side: 'long' as const, qty: 0.02 };
const plain = { reduceOnly: false, closePosition: false };

describe('Binance one-way MARKET orders onto positions (pure)', () => {
  it('opens without a position; refuses reduce-only there (-2022)', () => {
    expect(planOrder({ side: 'BUY', quantity: 0.01, ...plain }, [])).to.deep.equal({ kind: 'open', side: 'long', quantity: 0.01 });
    expect(planOrder({ side: 'SELL', quantity: 0.01, reduceOnly: true, closePosition: false }, [])).to.deep.include({
      reason: 'reduce_only_rejected',
    });
  });

  it("adds an order in the position's direction to it (the engine's increase); reduce-only there is refused; past an opposite one it flips", () => {
    expect(planOrder({ side: 'BUY', quantity: 0.01, ...plain }, [long])).to.deep.equal({ kind: 'increase', id: 'bp1', quantity: 0.01 });
    const short = { id: 'bp2', side: 'short' as const, qty: 0.5 };
    expect(planOrder({ side: 'SELL', quantity: 2, ...plain }, [short])).to.deep.equal({ kind: 'increase', id: 'bp2', quantity: 2 });
    expect(planOrder({ side: 'BUY', quantity: 0.01, reduceOnly: true, closePosition: false }, [long])).to.deep.include({
      reason: 'reduce_only_rejected',
    });
    expect(planOrder({ side: 'BUY', reduceOnly: false, closePosition: true }, [long])).to.deep.include({ reason: 'reduce_only_rejected' });
    expect(planOrder({ side: 'SELL', quantity: 0.03, ...plain }, [long])).to.deep.include({ kind: 'flip', id: 'bp1', side: 'short' });
    expect((planOrder({ side: 'SELL', quantity: 0.03, ...plain }, [long]) as { quantity: number }).quantity).to.be.closeTo(0.01, 1e-12);
    expect(planOrder({ side: 'SELL', quantity: 0.03, reduceOnly: true, closePosition: false }, [long])).to.deep.equal({
      kind: 'close',
      id: 'bp1',
      pct: 100,
    });
  });

  it('closes all of it with closePosition, reduce-only past its size, or its size; a smaller order closes its share', () => {
    expect(planOrder({ side: 'SELL', reduceOnly: false, closePosition: true }, [long])).to.deep.equal({
      kind: 'close',
      id: 'bp1',
      pct: 100,
    });
    expect(planOrder({ side: 'SELL', quantity: 1, reduceOnly: true, closePosition: false }, [long])).to.deep.equal({
      kind: 'close',
      id: 'bp1',
      pct: 100,
    });
    expect(planOrder({ side: 'SELL', quantity: 0.02, ...plain }, [long])).to.deep.equal({ kind: 'close', id: 'bp1', pct: 100 });
    fc.assert(
      fc.property(fc.double({ min: 1e-6, max: 0.0199, noNaN: true }), (quantity) => {
        const plan = planOrder({ side: 'SELL', quantity, ...plain }, [long]);
        expect(plan.kind).to.equal('close');
        if (plan.kind === 'close') expect(plan.pct).to.be.closeTo((quantity / 0.02) * 100, 1e-9);
      }),
    );
  });
});
