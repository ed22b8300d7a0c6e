// @three-masters: the trigger and order indexes sit on other masters than the accounts; the CLI walks every one
import { expect } from 'chai';
import { runCli } from '../../ops/cli/cli-run.js';
import { keys } from '../../shared/redis/keys.js';
import { scanAll } from '../../shared/redis/scan.js';
import { useOrderFixture } from '../helpers/order-fixture.js';
import { testRedisUrl } from '../helpers/redis.js';
import { closedPosition, testSweep } from '../helpers/sweep.js';
import { botCall } from '../helpers/trading.js';

type Body = Record<string, unknown> & { order?: { order_id: string; fills_from_ts: number }; position?: { id: string } };

describe('operator CLI: reindex rebuilds the trigger and order indexes from the books', function () {
  this.timeout(60_000);
  const fx = useOrderFixture();

  const open = async (body: Record<string, unknown>): Promise<Body> => {
    const r = await botCall<Body>(fx.api.url, fx.trader, 'POST', '/open', { symbol: 'BTC', margin_usd: 100, leverage: 10, ...body });
    expect(r.status, JSON.stringify(r.body)).to.equal(200);
    return r.body;
  };
  /** Every per-symbol index key, as a lost shard or a restore would leave them: gone. */
  const indexKeys = async (): Promise<string[]> =>
    [...(await scanAll(fx.redis, { match: 'trig:*', count: 500 })), ...(await scanAll(fx.redis, { match: 'ord:*', count: 500 }))].sort();

  it('after the indexes are lost, stops and resting orders fire again once reindexed', async () => {
    const stopped = (await open({ side: 'long', sl: 64000 })).position!;
    const resting = (await open({ symbol: 'ETH', side: 'short', type: 'limit', limit_price: 3_600 })).order!;
    const before = await indexKeys();
    expect(before).to.include.members([keys.triggerIndex('BTCUSDT', 'sl', 'long'), keys.orderIndex('ETHUSDT', 'up'), keys.orderExpiry()]);
    for (const key of before) await fx.redis.del(key);
    expect(await indexKeys()).to.deep.equal([]);

    const ran = await runCli(['reindex'], { REDIS_URL: testRedisUrl(), LOG_LEVEL: 'silent' });
    expect(ran.code, ran.stderr).to.equal(0);
    expect(ran.stdout).to.match(/^reindex: 1 open positions and 1 resting orders in \d+ books of \d+ accounts indexed/);
    expect(await indexKeys()).to.deep.equal(before);

    // candles that cross them: the order fills and the stop fires, as they would have before the loss
    const minute = resting.fills_from_ts;
    expect(await fx.candle('ETHUSDT', minute, 3_550, 3_650)).to.deep.equal({ filled: 1, blocked: 0 });
    const report = await testSweep(fx.redis).candle.sweep([
      { symbol: 'BTCUSDT', minute, open: 65_000, high: 65_100, low: 63_000, close: 63_500 },
    ]);
    expect(report.settled).to.be.at.least(1);
    expect(await closedPosition(fx.redis, { accountId: fx.trader.accountId, book: fx.trader.book }, stopped.id)).to.include({
      close_reason: 'stop_loss',
    });
  });
});
