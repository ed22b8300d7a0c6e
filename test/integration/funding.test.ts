import { createDomain } from '../../shared/domain.js';
import { expect } from 'chai';
import type { RedisClient } from '../../shared/core/redis-client.js';
import { configWith } from '../../shared/core/config.js';
import { createLogger } from '../../shared/core/logger.js';
import { saveUniverse } from '../../shared/market/universe-store.js';
import { FundingStore } from '../../shared/paper/funding/funding-store.js';
import { recordFunding } from '../../shared/paper/funding/funding-recorder.js';
import { parsePremiumIndex } from '../../shared/paper/funding/premium-index.js';
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
    await saveUniverse(redis, { updatedAt: now, symbols: [{ symbol: 'ETHUSDT', quoteVolume24h: 1e9, venues: ['binance'] }] });
    trading = createDomain({ config, redis, clock }).trading;
  });
  afterEach(async () => {
    await closeRedis(redis);
  });

  it('parses premiumIndex: perpetuals only, rate and mark as numbers', () => {
    const rows = parsePremiumIndex(fixture('binance-usdm/premium-index.json'));
    expect(rows.find((r) => r.symbol === 'SEIUSDT')).to.deep.equal({ symbol: 'SEIUSDT', rate: 0.00019562, mark: 0.6689 });
    expect(rows.some((r) => r.symbol.includes('_'))).to.equal(false);
    expect(parsePremiumIndex({ nope: 1 })).to.deep.equal([]);
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

  it('records the funding time just passed from the simulated exchange premiumIndex, once per time', async () => {
    const sim: SimHandle = await startScriptedSim();
    try {
      now = Date.now();
      await saveUniverse(redis, {
        updatedAt: now,
        symbols: ['BTCUSDT', 'XAUUSDT'].map((symbol) => ({ symbol, quoteVolume24h: 1, venues: ['binance' as const] })),
      });
      const deps = {
        funding: new FundingStore(redis),
        binanceRest: `${sim.url}/binance`,
        symbols: async () => ['BTCUSDT', 'XAUUSDT'],
        clock: { now: () => now },
        logger: createLogger(configWith({})),
        http: { timeoutMs: 5_000, attempts: 2, baseDelayMs: 50, maxDelayMs: 100 },
      };
      const first = await recordFunding(deps);
      expect(first.recorded).to.equal(2);
      expect(first.time % (8 * H)).to.equal(0);
      const again = await recordFunding(deps);
      expect(again).to.include({ recorded: 0, kept: 2 });
      const stored = JSON.parse((await redis.hget(keys.fundingRecords('XAUUSDT'), String(first.time)))!) as { rate: number; mark: number };
      expect(stored.rate).to.equal(0.0001);
      expect(stored.mark).to.be.above(0);
    } finally {
      await sim.close();
    }
  });
});
