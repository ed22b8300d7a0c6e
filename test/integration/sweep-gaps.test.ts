// @three-masters: the sweep's scripts over several keys
/**
 * Gap-aware exits on the candle sweep (real Redis): a position filled with exit_slippage settles a
 * stop, trailing stop or liquidation whose candle opened beyond the level at that open; its target
 * at the level; a position without it at the level as before (shared/paper/sweep/README.md).
 */
import { expect } from 'chai';
import type { RedisClient } from '../../shared/core/redis-client.js';
import type { BookRef, Position } from '../../shared/paper/positions/position-types.js';
import { useFreshRedis } from '../helpers/redis.js';
import { closedPosition, MINUTE, seedPositions, testPosition, testSweep } from '../helpers/sweep.js';

const A: BookRef = { accountId: 'acctgap1', book: 'main' };
const nextMinute = (): number => Math.ceil((Date.now() + 1) / MINUTE) * MINUTE;

describe('the sweep: gap-aware exits (exit_slippage)', function () {
  this.timeout(30_000);
  let redis: RedisClient;
  useFreshRedis((fresh) => (redis = fresh), 'each');

  it('fills a stop at the open of a candle that opened through it, a target at its level, and the untouched rule as before', async () => {
    const gap = { exit_slippage_bps: 1 };
    const at = (over: Partial<Position> & { side: 'long' | 'short' }, symbol = 'ETHUSDT') =>
      testPosition(A, { symbol, entry: 100, ...over });
    const p = {
      // the ETH candle opens at 93, below the long stops at 95, and reaches 104
      gappedStop: at({ side: 'long', sl: 95, ...gap }),
      plainStop: at({ side: 'long', sl: 95 }),
      // a short's target at 96 is below the open: it still fills at 96, not at 93
      gappedTarget: at({ side: 'short', tp: 96, ...gap }),
      // SOL opens at 80, through a 10x long's liquidation at 90.5: the open, and the loss is still the margin
      gappedLiq: at({ side: 'long', ...gap }, 'SOLUSDT'),
      // a short stop the candle reaches from below (opened at 80, high 106): no gap, the level
      shortStop: at({ side: 'short', sl: 105, ...gap }, 'SOLUSDT'),
    };
    await seedPositions(redis, A, Object.values(p));
    const minute = nextMinute();
    await testSweep(redis).candle.sweep([
      { symbol: 'ETHUSDT', minute, open: 93, low: 92, high: 104, close: 100 },
      { symbol: 'SOLUSDT', minute, open: 80, low: 79, high: 106, close: 100 },
    ]);
    const exit = async (q: Position) => (await closedPosition(redis, A, q.id))?.exit;
    expect(await exit(p.gappedStop)).to.equal(93);
    expect(await exit(p.plainStop)).to.equal(95);
    expect(await exit(p.gappedTarget)).to.equal(96);
    expect(await exit(p.gappedLiq)).to.equal(80);
    expect((await closedPosition(redis, A, p.gappedLiq.id))?.pnl_usd).to.equal(-100);
    expect(await exit(p.shortStop)).to.equal(105);
    // the gapped stop lost more than the plain one: 100 x 10 / 100 = 10 units, 2 USD each further
    const lost = (q: Position) => closedPosition(redis, A, q.id).then((c) => c!.pnl_usd!);
    expect((await lost(p.plainStop)) - (await lost(p.gappedStop))).to.be.closeTo(20 - 10 * 2 * 0.00055, 0.02);
  });
});
