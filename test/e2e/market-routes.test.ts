import { expect } from 'chai';
import { getJson } from '../helpers/app.js';
import { MAJOR_SYMBOLS, simControl, useSimStack } from '../helpers/market-sim.js';
import { waitFor } from '../helpers/market-wait.js';
import { keysMatching } from '../helpers/redis.js';

interface Envelope<T> {
  ok: boolean;
  data: T;
  error?: { code: string; message: string };
}
interface PriceData {
  symbol: string;
  pair: string;
  price: number;
  changePct24h: number | null;
  change_24h_pct?: number | null;
  venues: number;
  stale: boolean;
  ageMs?: number;
}
interface CandleRow {
  time: number;
  open: number;
  high: number;
  low: number;
  close: number;
}

const VENUES = ['binance', 'bybit', 'okx', 'bitget'];

describe('market data end to end: sim -> connectors -> Redis -> API', function () {
  this.timeout(60_000);
  const stack = useSimStack({
    env: { PRICE_FRESH_MS: '1500', PRICE_STALE_MAX_MS: '5000', QUOTE_CACHE_MS: '100', PUBLIC_RATE_LIMIT: '100000', FEED_LEASE_MS: '2000' },
    feed: true,
  });
  before(async () => {
    await waitFor(async () => (await fetch(`${stack.api.url}/api/v1/price?symbol=BTC`)).status === 200, 20_000, 'first BTC price');
  });

  const price = (symbol: string) => getJson<Envelope<PriceData>>(`${stack.api.url}/api/v1/price?symbol=${symbol}`);

  it('serves a price set on the exchanges within 2 s, from all four venues', async () => {
    await simControl(stack.sim, 'price', { symbol: 'BTCUSDT', price: 70123.5 });
    const started = Date.now();
    const served = await waitFor(
      async () => {
        const r = await price('BTC');
        return r.body.data?.price === 70123.5 ? r.body.data : undefined;
      },
      2_000,
      'the new BTC price',
    );
    expect(Date.now() - started).to.be.below(2_000);
    expect(served).to.include({ symbol: 'BTC', pair: 'BTCUSDT', venues: 4, stale: false });
    // the 24h change under our name and the original's
    expect(served.changePct24h).to.be.a('number');
    expect(served).to.have.property('change_24h_pct', served.changePct24h);
    const byPair = await price('BTCUSDT');
    expect(byPair.body.data.price).to.equal(70123.5);
  });

  it('serves the eight majors with prices as strings', async () => {
    const r = await getJson<Envelope<{ pairs: { symbol: string; price: string; changePct: string | null }[] }>>(
      `${stack.api.url}/api/v1/prices`,
    );
    expect(r.body.data.pairs.map((p) => p.symbol)).to.deep.equal(MAJOR_SYMBOLS);
    for (const pair of r.body.data.pairs) expect(Number(pair.price)).to.be.greaterThan(0);
  });

  it('lists the symbol universe by volume, BTC first', async () => {
    const r = await getJson<Envelope<{ symbols: string[]; count: number }>>(`${stack.api.url}/api/v1/symbols`);
    expect(r.body.data.count).to.be.at.least(50);
    expect(r.body.data.symbols[0]).to.equal('BTCUSDT');
    expect(r.body.data.symbols).to.include('ETHUSDT');
  });

  it('shows a forced candle in /api/v1/klines and /api/bot/v1/klines (time in seconds, newest last)', async () => {
    const minute = Math.floor(Date.now() / 60_000) * 60_000 - 3 * 60_000;
    const candle = { open: 1001, high: 1010.5, low: 995.25, close: 1004 };
    await simControl(stack.sim, 'candle', { symbol: 'ETHUSDT', minute, ...candle });
    const v1 = await waitFor(
      async () => {
        const r = await getJson<Envelope<CandleRow[]>>(`${stack.api.url}/api/v1/klines?symbol=ETH&interval=1&limit=10`);
        return r.body.data?.find((c) => c.time === minute / 1000) ? r.body.data : undefined;
      },
      5_000,
      'the forced candle',
    );
    expect(v1.find((c) => c.time === minute / 1000)).to.include(candle);
    const times = v1.map((c) => c.time);
    expect(times).to.deep.equal([...times].sort((a, b) => a - b));
    const bot = await getJson<CandleRow[]>(`${stack.api.url}/api/bot/v1/klines?symbol=ETHUSDT&interval=1&limit=3&end=${minute}`);
    expect(bot.body.map((c) => c.time)).to.deep.equal([minute / 1000 - 120, minute / 1000 - 60, minute / 1000]);
    expect(bot.body[2]).to.include(candle);
    const v2 = await getJson<Envelope<CandleRow[]>>(`${stack.api.url}/api/bot/v2/klines?symbol=ETH&interval=1&limit=1&end=${minute}`);
    expect(v2.body.ok).to.equal(true);
    expect(v2.body.data[0]).to.include({ time: minute / 1000, ...candle });
  });

  it('builds 5-minute candles from the 1-minute ones', async () => {
    const r = await getJson<Envelope<CandleRow[]>>(`${stack.api.url}/api/v1/klines?symbol=ETH&interval=5&limit=6`);
    expect(r.body.data).to.have.length(6);
    for (const c of r.body.data) {
      expect(c.time % 300).to.equal(0);
      expect(c.high).to.be.at.least(Math.max(c.open, c.close));
      expect(c.low).to.be.at.most(Math.min(c.open, c.close));
    }
  });

  it('serves daily and weekly history beyond the 24 h in Redis from the exchanges (REST), aligned like Binance', async () => {
    const daily = await getJson<Envelope<CandleRow[]>>(`${stack.api.url}/api/v1/klines?symbol=BTC&interval=1440&limit=30`);
    expect(daily.status).to.equal(200);
    expect(daily.body.data).to.have.length(30);
    expect(daily.body.data.every((c) => c.time % 86_400 === 0)).to.equal(true);
    expect(daily.body.data.at(-1)?.time).to.equal(Math.floor(Date.now() / 86_400_000) * 86_400);
    const weekly = await getJson<Envelope<CandleRow[]>>(`${stack.api.url}/api/v1/klines?symbol=BTC&interval=1w&limit=10`);
    expect(weekly.body.data).to.have.length(10);
    for (const c of weekly.body.data) expect(new Date(c.time * 1000).getUTCDay()).to.equal(1); // Monday
    const paged = await getJson<CandleRow[]>(
      `${stack.api.url}/api/bot/v1/klines?symbol=BTC&interval=1440&limit=5&end=${daily.body.data[10].time * 1000}`,
    );
    expect(paged.body.map((c) => c.time)).to.deep.equal(daily.body.data.slice(6, 11).map((c) => c.time));
  });

  it('caches history in aligned windows: a few entries per symbol and interval, whatever `end` and `limit` callers send', async () => {
    const DAY = 86_400_000;
    const historyKeys = async () => (await keysMatching(stack.redis, 'mkt:{BTCUSDT}:hist:1440:*')).sort();
    for (let back = 1; back <= 40; back++) {
      const r = await getJson<Envelope<CandleRow[]>>(
        `${stack.api.url}/api/v1/klines?symbol=BTC&interval=1d&limit=1000&end=${Date.now() - back * DAY}`,
      );
      expect(r.status).to.equal(200);
    }
    for (const limit of [10, 1000, 200, 999, 1]) {
      const r = await getJson<Envelope<CandleRow[]>>(
        `${stack.api.url}/api/v1/klines?symbol=BTC&interval=1d&limit=${limit}&end=${Date.now()}`,
      );
      expect(r.body.data).to.have.length(limit);
    }
    // 1000 days back from today and 40 days before: the windows of 999 days those fall in, no more
    const stored = await historyKeys();
    expect(stored.length).to.be.within(2, 3);
    for (const key of stored) {
      // one entry holds at most 1000 candles of under 250 bytes (JSON) each, whatever was asked
      const bytes = await stack.redis.strlen(key);
      expect(bytes).to.be.below(1000 * 250);
      expect(await stack.redis.memory('USAGE', key)).to.be.below(bytes * 1.5);
    }
    for (const name of VENUES) await simControl(stack.sim, 'provider', { name, down: true });
    try {
      const cached = await getJson<Envelope<CandleRow[]>>(`${stack.api.url}/api/v1/klines?symbol=BTC&interval=1d&limit=500`);
      expect(cached.body.data, 'the newest candles, from the cache').to.have.length(500);
      const past = await getJson<Envelope<CandleRow[]>>(
        `${stack.api.url}/api/v1/klines?symbol=BTC&interval=1d&limit=5&end=${Date.now() - 3 * DAY}`,
      );
      expect(past.body.data, 'a past page, from its cached window').to.have.length(5);
      const older = await getJson<Envelope<CandleRow[]>>(
        `${stack.api.url}/api/v1/klines?symbol=BTC&interval=1d&limit=5&end=${Date.now() - 4000 * DAY}`,
      );
      expect([older.status, older.body.error?.code], 'a window never fetched').to.deep.equal([503, 'upstream_unavailable']);
      // a plain message: what each exchange answered (its address, its error) goes to the log only
      expect(Object.keys(older.body.error!)).to.deep.equal(['code', 'message']);
      expect(JSON.stringify(older.body)).to.not.match(/https?:|127\.0\.0\.1|HTTP \d{3}/);
    } finally {
      for (const name of VENUES) await simControl(stack.sim, 'provider', { name, down: false });
    }
  });

  it('answers bad input with named codes', async () => {
    expect((await price('NOPECOIN')).body.error?.code).to.equal('unknown_symbol');
    expect((await price('NOPECOIN')).status).to.equal(404);
    const missing = await getJson<Envelope<never>>(`${stack.api.url}/api/v1/price`);
    expect([missing.status, missing.body.error?.code]).to.deep.equal([400, 'missing_symbol']);
    const interval = await getJson<Envelope<never>>(`${stack.api.url}/api/v1/klines?symbol=BTC&interval=7`);
    expect([interval.status, interval.body.error?.code]).to.deep.equal([400, 'bad_interval']);
    const botV1 = await getJson<{ error: string }>(`${stack.api.url}/api/bot/v1/price?symbol=NOPECOIN`);
    expect([botV1.status, botV1.body.error]).to.deep.equal([404, 'unknown_symbol']);
  });

  it('reports server time and the client drift', async () => {
    const clientTs = Date.now() - 1234;
    const r = await getJson<{ server_time_ms: number; drift_ms: number; client_time_ms: number }>(
      `${stack.api.url}/api/bot/v1/time?client_ts=${clientTs}`,
    );
    expect(r.body.client_time_ms).to.equal(clientTs);
    expect(r.body.drift_ms).to.equal(r.body.server_time_ms - clientTs);
    expect(r.body.drift_ms).to.be.within(1234, 1234 + 5_000);
  });

  it('keeps a median of three when one exchange is down, serves stale when all are, then 503', async () => {
    await simControl(stack.sim, 'provider', { name: 'okx', down: true });
    await simControl(stack.sim, 'price', { symbol: 'SOLUSDT', price: 151.25 });
    const three = await waitFor(
      async () => {
        const r = await price('SOL');
        return r.body.data?.venues === 3 && r.body.data.price === 151.25 ? r.body.data : undefined;
      },
      8_000,
      'SOL from three venues',
    );
    expect(three.stale).to.equal(false);

    for (const venue of VENUES) await simControl(stack.sim, 'provider', { name: venue, down: true });
    const stale = await waitFor(
      async () => {
        const r = await price('SOL');
        return r.body.data?.stale ? r.body.data : undefined;
      },
      8_000,
      'a stale SOL price',
    );
    expect(stale.price).to.equal(151.25);
    expect(stale.ageMs).to.be.above(1500);
    const gone = await waitFor(
      async () => {
        const r = await price('SOL');
        return r.status === 503 ? r.body : undefined;
      },
      10_000,
      'SOL to expire',
    );
    expect(gone.error?.code).to.equal('upstream_unavailable');

    for (const venue of VENUES) await simControl(stack.sim, 'provider', { name: venue, down: false });
    await waitFor(async () => (await price('SOL')).body.data?.venues === 4, 20_000, 'SOL back from four venues');
  });
});
