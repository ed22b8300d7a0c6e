import { expect } from 'chai';
import type { CoinTotals, VenueTotals } from '../../shared/derivatives/liquidations/liquidation-service.js';
import { QUEUES } from '../../shared/queues/queue-names.js';
import { derivativesProcessor } from '../../workers/processors/derivatives/derivatives-processor.js';
import { SCHEDULES } from '../../workers/schedules.js';
import { getJson } from '../helpers/app.js';
import { closeCurrentMinute, MAJOR_SYMBOLS, simControl, useSimStack } from '../helpers/market-sim.js';
import { waitFor } from '../helpers/market-wait.js';
import { toWsUrl, WsProbe } from '../helpers/sim-client.js';

const EXCHANGES = ['binance', 'bybit', 'okx', 'bitget', 'gate', 'bitmex', 'deribit', 'htx', 'bitfinex'];
const EVENT_KEYS = ['ts', 'exchange', 'symbol', 'side', 'price', 'qty', 'notional'];

interface Envelope<T> {
  ok: boolean;
  data: T;
  error?: { code: string; message: string };
}
interface Event {
  ts: number;
  exchange: string;
  symbol: string;
  side: string;
  price: number;
  qty: number;
  notional: number;
}

describe('derivatives end to end: sim -> liquidation collector and refresh jobs -> Redis -> API', function () {
  this.timeout(90_000);
  const stack = useSimStack({
    env: { PUBLIC_RATE_LIMIT: '1000000', FEED_LEASE_MS: '2000', LIQ_FLUSH_MS: '50', QUOTE_CACHE_MS: '0' },
    feed: true,
    worker: { processors: [derivativesProcessor], schedules: SCHEDULES.filter((s) => s.queue === QUEUES.derivatives) },
  });

  const liquidate = (exchange: string, symbol: string, side: 'long' | 'short', price: number, qty: number) =>
    simControl(stack.sim, 'liquidation', { exchange, symbol, side, price, qty });
  const coins = async () => (await getJson<Envelope<{ coins: CoinTotals[] }>>(`${stack.api.url}/api/v1/liquidations`)).body.data.coins;
  const coin = async (pair: string) => (await coins()).find((c) => c.pair === pair);
  const venues = async () =>
    (await getJson<Envelope<{ venues: VenueTotals[]; totalUsd: number }>>(`${stack.api.url}/api/v1/venues`)).body.data;
  const connections = async () =>
    ((await (await fetch(`${stack.sim.url}/__sim/state`)).json()) as { connections: Record<string, number> }).connections;

  before(async () => {
    // every exchange's collector is subscribed once the sim streams a probe liquidation of each to a subscriber,
    // and the probes come through once /venues counts one of each
    await waitFor(async () => (await fetch(`${stack.api.url}/api/v1/price?symbol=BTC`)).status === 200, 20_000, 'the feed');
    const subscribed = new Set<string>();
    await waitFor(
      async () => {
        for (const exchange of EXCHANGES) {
          if (subscribed.has(exchange)) continue;
          const probe = (await liquidate(exchange, 'LTCUSDT', 'long', 80, 1)) as { frames?: number };
          if ((probe.frames ?? 0) > 0) subscribed.add(exchange);
        }
        return subscribed.size === EXCHANGES.length;
      },
      30_000,
      'every exchange subscribed',
      200,
    );
    await waitFor(
      async () => (await venues()).venues.filter((v) => EXCHANGES.includes(v.exchange) && v.count > 0).length === EXCHANGES.length,
      30_000,
      'a probe liquidation from each of the nine exchanges',
    );
  });

  it('shows injected liquidations of all nine formats in feed, live, recent, liquidations and venues with the right sums', async () => {
    const before = await venues();
    for (const exchange of EXCHANGES) {
      await liquidate(exchange, 'ETHUSDT', 'long', 3000, 2);
      await liquidate(exchange, 'ETHUSDT', 'short', 3100, 1);
    }
    const eth = await waitFor(
      async () => {
        const c = await coin('ETHUSDT');
        return c && c.longCount === 9 && c.shortCount === 9 ? c : undefined;
      },
      10_000,
      'the ETH liquidations',
    );
    expect(eth).to.include({ longUsd: 54_000, shortUsd: 27_900, totalUsd: 81_900 });

    const feedRes = await fetch(`${stack.api.url}/api/v1/feed`);
    expect(feedRes.headers.get('cache-control')).to.equal('public, max-age=3, s-maxage=3');
    const feedBody = (await feedRes.json()) as { events: Event[] };
    expect(Object.keys(feedBody)).to.deep.equal(['events']);
    const ethEvents = feedBody.events.filter((e) => e.symbol === 'ETHUSDT');
    expect(ethEvents).to.have.length(18);
    for (const e of feedBody.events) expect(Object.keys(e)).to.deep.equal(EVENT_KEYS);
    const times = feedBody.events.map((e) => e.ts);
    expect(times).to.deep.equal([...times].sort((a, b) => b - a));
    expect(new Set(ethEvents.map((e) => e.exchange))).to.have.property('size', 9);
    for (const e of ethEvents) {
      if (e.side === 'long_liquidated') expect(e).to.include({ price: 3000, qty: 2, notional: 6000 });
      else expect(e).to.include({ side: 'short_liquidated', price: 3100, qty: 1, notional: 3100 });
    }

    const live = await getJson<{ symbol: string; events: Event[]; updatedAt: number }>(
      `${stack.api.url}/api/v1/liquidations/live?symbol=ETH&limit=1000`,
    );
    expect(live.body.symbol).to.equal('ETHUSDT');
    expect(live.body.events).to.have.length(18);
    expect(live.body.events.filter((e) => e.side === 'long_liquidated')).to.have.length(9);
    expect(
      (await getJson<{ events: Event[] }>(`${stack.api.url}/api/v1/liquidations/live?symbol=ETHUSDT&limit=5`)).body.events,
    ).to.have.length(5);

    for (const [minutes, size] of [
      [60, 1],
      [1440, 15],
      [43_200, 240],
    ]) {
      const recent = await getJson<{ bucket_minutes: number; long_usd: number; short_usd: number; buckets: { ts: number }[] }>(
        `${stack.api.url}/api/v1/liquidations/recent?symbol=eth&minutes=${minutes}`,
      );
      expect(recent.body).to.include({ bucket_minutes: size, long_usd: 54_000, short_usd: 27_900 });
      expect(recent.body.buckets.length).to.be.within(Math.ceil(minutes / size), Math.ceil(minutes / size) + 1);
    }

    // /venues is shared from a 2 s in-process cache: wait for the answer that includes the new events
    const after = await waitFor(
      async () => {
        const v = await venues();
        return v.totalUsd !== before.totalUsd ? v : undefined;
      },
      5_000,
      'venues totals with the new events',
    );
    expect(after.totalUsd - before.totalUsd).to.be.closeTo(9 * 9_100, 0.01);
    expect(after.venues.reduce((s, v) => s + v.sharePct, 0)).to.be.closeTo(100, 0.1);
    for (const exchange of EXCHANGES) {
      const was = before.venues.find((v) => v.exchange === exchange)!;
      const now = after.venues.find((v) => v.exchange === exchange)!;
      expect([now.longUsd - was.longUsd, now.shortUsd - was.shortUsd, now.count - was.count], exchange).to.deep.equal([6_000, 3_100, 2]);
      expect(now.coverage).to.be.a('string').and.not.equal('');
    }
    expect(after.venues.find((v) => v.exchange === 'binance')?.coverage).to.contain('per symbol per second');
  });

  it('does not double-count after a reconnect, although the exchanges replay recent events', async () => {
    for (const exchange of EXCHANGES) await liquidate(exchange, 'SOLUSDT', 'long', 100, 10);
    await waitFor(async () => (await coin('SOLUSDT'))?.longCount === 9, 10_000, 'the SOL liquidations');
    const before = await connections();
    const dropped = (await simControl(stack.sim, 'drop', {})) as { dropped: number };
    expect(dropped.dropped).to.be.greaterThan(9);
    await waitFor(
      async () => {
        const now = await connections();
        return Object.entries(before).every(([name, n]) => (now[name] ?? 0) >= n);
      },
      20_000,
      'every connection back',
    );
    // subscriptions go out right after the connection opens (Bybit's in batches): wait until each exchange streams a
    // probe (another coin) to a subscriber again, however slow the machine is
    const resubscribed = new Set<string>();
    await waitFor(
      async () => {
        for (const exchange of EXCHANGES) {
          if (resubscribed.has(exchange)) continue;
          const probe = (await liquidate(exchange, 'LTCUSDT', 'long', 80, 1)) as { frames?: number };
          if ((probe.frames ?? 0) > 0) resubscribed.add(exchange);
        }
        return resubscribed.size === EXCHANGES.length;
      },
      20_000,
      'every exchange subscribed again',
    );
    // the replay a new subscriber gets, as BitMEX's partial and Bitfinex's snapshot carry it
    const probe = await WsProbe.open(`${toWsUrl(stack.sim.url)}/bitmex/realtime`);
    probe.send({ op: 'subscribe', args: ['liquidation'] });
    const partial = (await probe.waitFor((m) => (m as { action?: string }).action === 'partial')) as { data: { symbol: string }[] };
    probe.close();
    expect(partial.data.map((row) => row.symbol)).to.include('SOLUSDT');

    for (const exchange of EXCHANGES) await liquidate(exchange, 'SOLUSDT', 'short', 100, 1);
    const sol = await waitFor(
      async () => {
        const c = await coin('SOLUSDT');
        return c && c.shortCount === 9 ? c : undefined;
      },
      10_000,
      'the markers after the reconnect',
    );
    // each exchange's stream arrives in order: once a later event from every one is counted (LTC shorts, which no probe
    // sends), a replayed SOL event would have been counted too
    for (const exchange of EXCHANGES) await liquidate(exchange, 'LTCUSDT', 'short', 80, 1);
    await waitFor(async () => (await coin('LTCUSDT'))?.shortCount === 9, 10_000, 'a later event from every exchange');
    expect(await coin('SOLUSDT')).to.deep.include({ longUsd: 9_000, longCount: 9, shortUsd: 900, shortCount: 9 });
    expect(sol.longUsd).to.equal(9_000);
    const live = await getJson<{ events: Event[] }>(`${stack.api.url}/api/v1/liquidations/live?symbol=SOL&limit=1000`);
    expect(live.body.events).to.have.length(18);
  });

  it('serves funding (~every pair, positive = longs pay shorts), open interest in USD and the majors long/short ratio from the jobs', async () => {
    const funding = await waitFor(
      async () => {
        const r = await getJson<
          Envelope<{
            count: number;
            pairs: {
              pair: string;
              rate: number;
              nextFundingTime: number;
              intervalHours: number;
              exchanges: Record<string, { rate: number }>;
            }[];
          }>
        >(`${stack.api.url}/api/v1/funding`);
        return r.status === 200 && r.body.data.count > 0 ? r.body.data : undefined;
      },
      20_000,
      'funding',
    );
    expect(funding.count).to.be.at.least(50);
    const btc = funding.pairs.find((p) => p.pair === 'BTCUSDT')!;
    expect(btc.rate).to.equal(0.0001);
    expect(Object.keys(btc.exchanges).sort()).to.deep.equal(['binance', 'bybit', 'okx']);
    expect(btc.nextFundingTime).to.be.greaterThan(Date.now());
    // each pair's own schedule (the sim runs SEI hourly and WIF every 4 h, as Binance's fundingInfo says)
    const schedule = (pair: string) => funding.pairs.find((p) => p.pair === pair)!;
    for (const [pair, hours] of [
      ['BTCUSDT', 8],
      ['SEIUSDT', 1],
      ['WIFUSDT', 4],
    ] as const) {
      expect(schedule(pair).intervalHours, pair).to.equal(hours);
      expect(schedule(pair).nextFundingTime % (hours * 3_600_000), pair).to.equal(0);
      expect(schedule(pair).nextFundingTime - Date.now(), pair).to.be.within(0, hours * 3_600_000);
    }

    const oi = await waitFor(
      async () => {
        const r = await getJson<
          Envelope<{ count: number; totalUsd: number; pairs: { pair: string; oiUsd: number; exchanges: Record<string, number> }[] }>
        >(`${stack.api.url}/api/v1/open-interest`);
        return r.status === 200 ? r.body.data : undefined;
      },
      20_000,
      'open interest',
    );
    expect(oi.count).to.be.at.least(50);
    const btcOi = oi.pairs.find((p) => p.pair === 'BTCUSDT')!;
    expect(Object.keys(btcOi.exchanges).sort()).to.deep.equal(['binance', 'bybit', 'okx']);
    expect(btcOi.oiUsd).to.be.closeTo(
      Object.values(btcOi.exchanges).reduce((s, v) => s + v, 0),
      1,
    );
    expect(oi.pairs[0].oiUsd).to.be.at.least(oi.pairs[1].oiUsd);

    const ls = await waitFor(
      async () => {
        const r = await getJson<
          Envelope<{ pairs: { pair: string; longPct: number; shortPct: number; ratio: number; exchanges: Record<string, unknown> }[] }>
        >(`${stack.api.url}/api/v1/long-short`);
        return r.status === 200 ? r.body.data : undefined;
      },
      20_000,
      'long/short',
    );
    expect(ls.pairs.map((p) => p.pair)).to.deep.equal(MAJOR_SYMBOLS);
    for (const p of ls.pairs) {
      expect(p.longPct + p.shortPct).to.be.closeTo(100, 0.02);
      expect(Object.keys(p.exchanges).sort()).to.deep.equal(['binance', 'bybit']);
    }
  });

  it('serves modelled clusters: longs below the price, shorts above, with updatedAt', async () => {
    // the model reads the stored closed minutes: the sim closes one now rather than the test waiting for the wall clock's
    await closeCurrentMinute(stack.sim);
    const r = await waitFor(
      async () => {
        const answer = await getJson<{ clusters: { price: number; side: string; est_notional: number }[]; updatedAt: number }>(
          `${stack.api.url}/api/v1/clusters?symbol=BTC`,
        );
        return answer.status !== 200 || answer.body.clusters.length > 0 ? answer : undefined;
      },
      20_000,
      'clusters from a closed minute',
    );
    expect(r.status).to.equal(200);
    expect(Object.keys(r.body).sort()).to.deep.equal(['clusters', 'updatedAt']);
    expect(r.body.updatedAt).to.be.a('number');
    expect(r.body.clusters.length).to.be.greaterThan(0);
    const price = (await getJson<Envelope<{ price: number }>>(`${stack.api.url}/api/v1/price?symbol=BTC`)).body.data.price;
    for (const c of r.body.clusters) {
      expect(Object.keys(c)).to.deep.equal(['price', 'side', 'est_notional']);
      expect(c.est_notional).to.be.greaterThan(0);
      if (c.side === 'long') expect(c.price).to.be.below(price);
      else expect(c.side === 'short' && c.price > price).to.equal(true);
    }
  });

  it('answers bad input with 4xx and named codes, in the envelope even on the raw routes', async () => {
    const cases: [string, number, string][] = [
      ['/api/v1/liquidations/live?symbol=NOPECOIN', 404, 'unknown_symbol'],
      ['/api/v1/liquidations/recent?symbol=NOPECOIN', 404, 'unknown_symbol'],
      ['/api/v1/clusters?symbol=NOPECOIN', 404, 'unknown_symbol'],
      ['/api/v1/liquidations/live', 400, 'missing_symbol'],
      ['/api/v1/liquidations/live?symbol=BTC&limit=1001', 400, 'invalid_param'],
      ['/api/v1/liquidations/live?symbol=BTC&limit=abc', 400, 'invalid_param'],
      ['/api/v1/liquidations/live?symbol=BTC&limit=0', 400, 'invalid_param'],
      ['/api/v1/liquidations/recent?symbol=BTC&minutes=43201', 400, 'invalid_param'],
      ['/api/v1/liquidations/recent?symbol=BTC&minutes=1.5', 400, 'invalid_param'],
      ['/api/v1/liquidations/recent?symbol=BTC&minutes=NaN', 400, 'invalid_param'],
      ['/api/v1/clusters', 400, 'missing_symbol'],
    ];
    for (const [path, status, code] of cases) {
      const r = await getJson<Envelope<never>>(`${stack.api.url}${path}`);
      expect([r.status, r.body.ok, r.body.error?.code], path).to.deep.equal([status, false, code]);
    }
    expect((await getJson(`${stack.api.url}/api/v1/liquidations/recent?symbol=BTC&minutes=43200`)).status).to.equal(200);
    expect((await getJson(`${stack.api.url}/api/v1/liquidations/live?symbol=BTC&limit=1000`)).status).to.equal(200);
  });
});
