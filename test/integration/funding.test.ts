// @three-masters: funding charged by position-close over several keys
import { createDomain } from '../../shared/domain.js';
import { expect } from 'chai';
import type { RedisClient } from '../../shared/core/redis-client.js';
import { configWith } from '../../shared/config.js';
import { createLogger } from '../../shared/core/logger.js';
import { saveUniverse } from '../../shared/market/universe-store.js';
import { FundingStore } from '../../shared/paper/funding/funding-store.js';
import { MAX_CATCH_UP_MS, recordFunding } from '../../shared/paper/funding/funding-recorder.js';
import { parseFundingHistory } from '../../shared/paper/funding/funding-history.js';
import type { KeyContext } from '../../shared/paper/key-context.js';
import { effectivePlan } from '../../shared/paper/plans.js';
import { type TradingServices } from '../../shared/paper/trading-services.js';
import { closeRedis } from '../../shared/redis/connection.js';
import { keys } from '../../shared/redis/keys.js';
import { fixture } from '../helpers/fixtures.js';
import { startScriptedSim, type SimHandle } from '../helpers/market-sim.js';
import { freshRedis } from '../helpers/redis.js';

const H = 3_600_000;
const DAY = Date.UTC(2026, 0, 2);

describe('funding: recorded per funding time, charged at close', function () {
  this.timeout(30_000);
  let redis: RedisClient;
  let now = DAY + 7 * H;
  const clock = { now: () => now };
  let trading: TradingServices;
  const ctx: KeyContext = {
    keyId: 'k1',
    keyName: 'k',
    accountId: 'fund-acct',
    email: 'f@example.org',
    book: 'main',
    bookBound: false,
    plan: effectivePlan({ plan: 'free', until: null }, 0),
  };

  const setPrice = async (symbol: string, price: number) => {
    await redis.set(keys.marketQuote(symbol), JSON.stringify({ symbol, price, venues: 2, changePct24h: null, ts: now }));
  };

  beforeEach(async () => {
    redis = await freshRedis();
    now = DAY + 7 * H;
    const config = configWith({});
    await saveUniverse(redis, {
      updatedAt: now,
      symbols: [{ symbol: 'ETHUSDT', assetClass: 'crypto', quoteVolume24h: 1e9, venues: ['binance'] }],
    });
    trading = createDomain({ config, redis, clock }).trading;
  });
  afterEach(async () => {
    await closeRedis(redis);
  });

  it('parses the settled funding history: symbol, time, rate and mark as numbers', () => {
    expect(parseFundingHistory(fixture('binance-usdm/funding-rate.json'))).to.deep.equal([
      { symbol: 'BTCUSDT', time: 1570608000000, rate: -0.0375, mark: 34287.54619963 },
      { symbol: 'BTCUSDT', time: 1570636800000, rate: 0.0001, mark: 34287.54619963 },
    ]);
    expect(parseFundingHistory([{ symbol: 'BTCUSDT', fundingRate: '0.0001', fundingTime: 1, markPrice: '' }])).to.deep.equal([]);
    expect(parseFundingHistory({ nope: 1 })).to.deep.equal([]);
  });

  it('charges each funding time the position spans at the rate and mark recorded for it, at close; a partial close carries the rest', async () => {
    const funding = new FundingStore(redis);
    await funding.record('ETHUSDT', DAY + 8 * H, 0.0001, 100);
    await funding.record('ETHUSDT', DAY + 16 * H, -0.0002, 110);
    await funding.record('ETHUSDT', DAY, 0.01, 100); // before the open: never charged
    expect(await funding.record('ETHUSDT', DAY + 8 * H, 0.5, 1)).to.equal(false); // the first recording wins
    await setPrice('ETHUSDT', 100);
    const opened = await trading.positions.open(ctx, { symbol: 'ETH', side: 'long', margin_usd: 100, leverage: 10 });
    if (!('idempotent' in opened)) throw new Error('not opened');
    const id = opened.position.id;
    const qty = 10; // 1000 / 100

    now = DAY + 12 * H;
    await setPrice('ETHUSDT', 100);
    const [row] = (await trading.reads.positions(ctx, {})).positions;
    expect(row.funding_usd).to.equal(0.1); // 10 x 100 x 0.0001
    const half = await trading.closes.close(ctx, { id, pct: 50 });
    const paidFirst = qty * 100 * 0.0001;
    expect(half.closed.funding_usd).to.equal(paidFirst / 2);

    now = DAY + 17 * H;
    await setPrice('ETHUSDT', 120);
    const [rest] = (await trading.reads.positions(ctx, {})).positions;
    const rate = 0.055 / 100;
    const restFunding = paidFirst / 2 + 5 * 110 * -0.0002;
    expect(rest.funding_usd).to.equal(Math.round(restFunding * 100) / 100);
    const expectedRest = 5 * 20 - 5 * (100 + 120) * rate - restFunding;
    expect(rest.unrealized_pnl_usd).to.equal(Math.round(expectedRest * 100) / 100);
    const done = await trading.closes.close(ctx, { id });
    expect(done.closed.pnl_usd).to.equal(rest.unrealized_pnl_usd);
  });

  it("records what settled at each symbol's own funding times, catches up missed runs, and keeps a time once", async () => {
    const sim: SimHandle = await startScriptedSim();
    try {
      now = Date.now();
      const symbols = ['BTCUSDT', 'SEIUSDT', 'WIFUSDT', 'XAUUSDT']; // 8 h, 1 h, 4 h, 8 h in the sim's fundingInfo
      const store = new FundingStore(redis);
      const deps = {
        funding: store,
        binanceRest: `${sim.url}/binance`,
        symbols: async () => symbols,
        clock: { now: () => now },
        logger: createLogger(configWith({})),
        http: { timeoutMs: 5_000, attempts: 2, baseDelayMs: 50, maxDelayMs: 100 },
      };
      const info = (await (await fetch(`${sim.url}/binance/fapi/v1/fundingInfo`)).json()) as {
        symbol: string;
        fundingIntervalHours: number;
      }[];
      expect(info.filter((row) => symbols.includes(row.symbol)).map((row) => [row.symbol, row.fundingIntervalHours])).to.deep.equal([
        ['SEIUSDT', 1],
        ['WIFUSDT', 4],
      ]);
      // the last run finished 30 hours ago: this one catches up every funding time since (less the 2 h read-back)
      await store.setRecordedUntil(now - 30 * H);
      const first = await recordFunding(deps);
      expect(first.from).to.equal(now - 32 * H);
      const span = async (symbol: string) => (await store.between(symbol, first.from - 1, now)).map((r) => r.time);
      const expected = (hours: number) => {
        const step = hours * H;
        const times: number[] = [];
        for (let t = Math.ceil(first.from / step) * step; t <= now; t += step) times.push(t);
        return times;
      };
      expect(await span('SEIUSDT')).to.deep.equal(expected(1));
      expect(await span('WIFUSDT')).to.deep.equal(expected(4));
      expect(await span('BTCUSDT')).to.deep.equal(expected(8));
      expect(first.recorded).to.equal(expected(1).length + expected(4).length + 2 * expected(8).length);
      const [settled] = await store.between('XAUUSDT', first.from - 1, now);
      expect(settled.rate).to.equal(0.0001);
      expect(settled.mark).to.be.above(0);
      // the next run reads back 2 h: what it finds again is kept, not recorded twice
      const again = await recordFunding(deps);
      expect(again.recorded).to.equal(0);
      expect(again.from).to.equal(now - 2 * H);
      expect(await span('SEIUSDT')).to.deep.equal(expected(1));
      // a first run ever reads at most a week back
      await redis.del(keys.fundingRecordedUntil());
      expect((await recordFunding(deps)).from).to.equal(now - MAX_CATCH_UP_MS);
    } finally {
      await sim.close();
    }
  });
});
