/**
 * Order books from the venues' REST depth endpoints: the simulated exchange answers in each venue's
 * format (the fixtures' keys and types), the parsers read the fixtures, and the feed's refresher
 * stores every major's top 50 levels from the first venue that answers, falling back to the next.
 */
import { expect } from 'chai';
import type { RedisClient } from '../../shared/core/redis-client.js';
import { systemClock } from '../../shared/core/clock.js';
import { configWith } from '../../shared/config.js';
import { createLogger } from '../../shared/core/logger.js';
import { MAJOR_PAIRS } from '../../shared/engine/majors.js';
import { DepthRefresher } from '../../shared/market/depth-refresher.js';
import { DEPTH_CACHE_MS, DEPTH_STALE_MS, DepthStore } from '../../shared/market/depth-store.js';
import { createVenueRests } from '../../shared/market/market-store.js';
import { parseBinanceDepth, parseBybitDepth } from '../../shared/market/venues/depth-format.js';
import { fixture } from '../helpers/fixtures.js';
import { simControl, useScriptedSim } from '../helpers/market-sim.js';
import { useFreshRedis } from '../helpers/redis.js';
import { getJson, shapeDiff } from '../helpers/sim-client.js';

describe('order-book depth: venue formats, the simulated exchange, the feed refresher', function () {
  this.timeout(30_000);
  const scripted = useScriptedSim();
  let redis: RedisClient;
  useFreshRedis((fresh) => (redis = fresh), 'each');

  it('reads the fixtures: Binance and Bybit levels as numbers, best first, with the venue time', () => {
    const binance = parseBinanceDepth(fixture('binance-usdm/depth.json'));
    expect(binance.bids[0]).to.deep.equal([56865.62, 0.501]);
    expect(binance.asks[0]).to.deep.equal([56865.63, 3.972]);
    expect(binance.ts).to.equal(1616333020851);
    const bybit = parseBybitDepth(fixture('bybit-v5/orderbook.json'));
    expect(bybit.bids[0]).to.deep.equal([62710.2, 5.52]);
    expect(bybit.asks[0]).to.deep.equal([62710.3, 0.01]);
    expect(bybit.ts).to.equal(1709199771584);
    expect(() => parseBybitDepth({ retCode: 10001, retMsg: 'params error', result: {} })).to.throw();
  });

  it("serves each venue's depth in the fixture's shape, 50 levels a side when asked, asks above bids", async () => {
    const cases: [string, string, (body: unknown) => unknown][] = [
      ['/binance/fapi/v1/depth?symbol=BTCUSDT&limit=50', 'binance-usdm/depth.json', (b) => b],
      ['/bybit/v5/market/orderbook?category=linear&symbol=BTCUSDT&limit=50', 'bybit-v5/orderbook.json', (b) => b],
    ];
    for (const [path, file] of cases) {
      const r = await getJson(`${scripted.sim.url}${path}`);
      expect(r.status, path).to.equal(200);
      expect(
        shapeDiff(fixture(file), r.body).filter((d) => !/expected \d+ items, got \d+$/.test(d)),
        path,
      ).to.deep.equal([]);
    }
    const binance = parseBinanceDepth((await getJson(`${scripted.sim.url}/binance/fapi/v1/depth?symbol=BTCUSDT&limit=50`)).body);
    expect(binance.bids).to.have.length(50);
    expect(binance.asks[0][0]).to.be.greaterThan(binance.bids[0][0]);
    expect(binance.asks[1][0]).to.be.greaterThan(binance.asks[0][0]);
    expect((await getJson(`${scripted.sim.url}/binance/fapi/v1/depth?symbol=NOPEUSDT`)).status).to.equal(400);
  });

  it('walks no book older than the staleness bound, and rereads a book after the cache interval', async () => {
    let now = 1_000_000;
    const clock = { now: () => now };
    const store = new DepthStore(redis, clock);
    await store.save('BTCUSDT', { venue: 'binance', ts: now, bids: [[99, 1]], asks: [[101, 1]] });
    expect(await store.side('BTCUSDT', 'buy')).to.deep.equal([[101, 1]]);
    expect(await store.side('BTCUSDT', 'sell')).to.deep.equal([[99, 1]]);
    // a newer book is seen once the cached one is older than DEPTH_CACHE_MS
    await store.save('BTCUSDT', { venue: 'bybit', ts: now, bids: [[98, 1]], asks: [[102, 1]] });
    expect(await store.side('BTCUSDT', 'buy')).to.deep.equal([[101, 1]]);
    now += DEPTH_CACHE_MS + 1;
    expect(await store.side('BTCUSDT', 'buy')).to.deep.equal([[102, 1]]);
    // past DEPTH_STALE_MS from when the book arrived: no book at all
    now += DEPTH_STALE_MS;
    expect(await store.side('BTCUSDT', 'buy')).to.equal(undefined);
  });

  it('stores every major from the first venue that answers, and the next one when it fails', async () => {
    const config = configWith({ MARKET_SOURCE: 'sim', SIM_URL: scripted.sim.url, FEED_VENUES: 'binance,bybit' });
    const store = new DepthStore(redis, systemClock);
    const refresher = new DepthRefresher({
      store,
      rests: createVenueRests(config, systemClock, 1),
      clock: systemClock,
      logger: createLogger(config),
      refreshMs: 1000,
    });
    await refresher.refreshAll();
    for (const symbol of MAJOR_PAIRS) {
      const book = await store.get(symbol);
      expect(book, symbol).to.not.equal(null);
      expect(book!.venue).to.equal('binance');
      expect(book!.asks).to.have.length(50);
    }
    expect(await store.side('BTCUSDT', 'buy')).to.have.length(50);
    await simControl(scripted.sim, 'provider', { name: 'binance', down: true });
    try {
      await refresher.refreshAll();
      expect((await store.get('ETHUSDT'))!.venue).to.equal('bybit');
    } finally {
      await simControl(scripted.sim, 'provider', { name: 'binance', down: false });
    }
  });
});
