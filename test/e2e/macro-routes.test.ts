import { expect } from 'chai';
import { MACRO_JOBS, MACRO_RESOURCES } from '../../shared/macro/macro-resources.js';
import { QUEUES } from '../../shared/queues/queue-names.js';
import { keys } from '../../shared/redis/keys.js';
import { macroProcessor } from '../../workers/processors/macro/macro-processor.js';
import { getJson } from '../helpers/app.js';
import { simControl, useSimStack } from '../helpers/market-sim.js';
import { waitFor } from '../helpers/market-wait.js';

interface Envelope<T> {
  ok: boolean;
  data: T;
  error?: { code: string; message: string };
}
/** What an upstream error's text brings along: an address, an HTTP status, a parenthesised detail. */
const LEAKED = /https?:|127\.0\.0\.1|HTTP \d{3}|\(/;

interface Stamped {
  updatedAt: number;
  stale: boolean;
}

/** sim providers -> macro refresh jobs (BullMQ, every 300 ms here) -> Redis -> /api/v1 macro routes. */
describe('macro routes end to end: sim providers -> refresh jobs -> Redis -> API', function () {
  this.timeout(60_000);
  const stack = useSimStack({ env: { PUBLIC_RATE_LIMIT: '1000000', REST_TIMEOUT_MS: '2000' } });
  const get = <T>(path: string) => getJson<Envelope<T>>(`${stack.api.url}${path}`);
  /** Waits out the API's one-second in-process cache until the answer satisfies `ok`. */
  const until = <T>(path: string, ok: (r: { status: number; body: Envelope<T> }) => boolean, what: string) =>
    waitFor(
      async () => {
        const r = await get<T>(path);
        return ok(r) ? r : undefined;
      },
      15_000,
      what,
      100,
    );

  it('answers 503 upstream_unavailable before the first refresh', async () => {
    for (const path of ['/api/v1/fear-greed', '/api/v1/coins', '/api/v1/global', '/api/v1/trending', '/api/v1/defi']) {
      const r = await get(path);
      expect([r.status, r.body.error?.code], path).to.deep.equal([503, 'upstream_unavailable']);
    }
  });

  it('serves every resource once the scheduled jobs have run (DefiLlama down: still 503 until it answers)', async () => {
    await simControl(stack.sim, 'provider', { name: 'defillama', down: true });
    const every = 300;
    await stack.startWorker({
      processors: [macroProcessor],
      schedules: Object.values(MACRO_JOBS).map((name) => ({
        id: `test-macro-${name}`,
        queue: QUEUES.macro,
        repeat: { every },
        job: { name },
      })),
    });
    const fg = await until<
      Stamped & { value: number; classification: string; ts: number; history: { v: number; c: string; ts: number }[] }
    >('/api/v1/fear-greed', (r) => r.status === 200, 'fear and greed');
    expect(fg.body.data.value).to.be.within(0, 100);
    expect(fg.body.data.history).to.have.length(31);
    expect(fg.body.data.history[0]).to.deep.equal({ v: fg.body.data.value, c: fg.body.data.classification, ts: fg.body.data.ts });
    expect(fg.body.data.stale).to.equal(false);

    const coins = await until<
      Stamped & { count: number; coins: { id: string; sparkline: number[]; change1h: number; change7d: number }[] }
    >('/api/v1/coins', (r) => r.status === 200, 'coins');
    expect(coins.body.data.count).to.equal(250);
    expect(coins.body.data.coins[0].id).to.equal('bitcoin');
    expect(coins.body.data.coins[0].sparkline).to.have.length(42);
    expect(coins.body.data.coins[0].change7d).to.be.a('number');

    const global = await until<Stamped & { totalMarketCapUsd: number; btcDominance: number }>(
      '/api/v1/global',
      (r) => r.status === 200,
      'global',
    );
    expect(global.body.data.btcDominance).to.be.within(0, 100);
    const trending = await until<Stamped & { coins: unknown[] }>('/api/v1/trending', (r) => r.status === 200, 'trending');
    expect(trending.body.data.coins).to.have.length(7);

    // once a refresh has failed and its error is kept with the snapshot, the answer still names none of it
    await waitFor(
      async () => (await stack.redis.hget(keys.macroSnapshot(MACRO_RESOURCES.defi), 'error')) ?? undefined,
      15_000,
      'defi failed',
    );
    const defi = await get('/api/v1/defi');
    expect([defi.status, defi.body.error?.code]).to.deep.equal([503, 'upstream_unavailable']);
    // a plain message: the provider's address and error go to the log only
    expect(JSON.stringify(defi.body)).to.not.match(LEAKED);
    await simControl(stack.sim, 'provider', { name: 'defillama', down: false });
    const up = await until<Stamped & { totalTvl: number; protocols: { name: string }[]; stablecoins: { symbol: string }[] }>(
      '/api/v1/defi',
      (r) => r.status === 200,
      'defi',
    );
    expect(up.body.data.stale).to.equal(false);
    expect(up.body.data.protocols.map((p) => p.name)).to.not.include('Binance CEX');
    expect(up.body.data.protocols[0].name).to.equal('Lido');
    expect(up.body.data.stablecoins[0].symbol).to.equal('USDT');
  });

  it('serves the last good answer with stale: true while CoinGecko is down, then fresh again', async () => {
    const before = (await get<Stamped & { totalMarketCapUsd: number }>('/api/v1/global')).body.data;
    await simControl(stack.sim, 'provider', { name: 'coingecko', down: true });
    const stale = await until<Stamped & { totalMarketCapUsd: number }>(
      '/api/v1/global',
      (r) => r.body.data?.stale === true,
      'stale global',
    );
    expect(stale.status).to.equal(200);
    expect(stale.body.data.updatedAt).to.be.at.least(before.updatedAt);
    const staleCoins = await until<Stamped & { count: number }>('/api/v1/coins', (r) => r.body.data?.stale === true, 'stale coins');
    expect(staleCoins.body.data.count).to.equal(250);
    // a category never fetched has nothing stale to serve: a plain 503, CoinGecko's error in the log only
    const unfetched = await get('/api/v1/coins?cat=layer-1');
    expect([unfetched.status, unfetched.body.error?.code]).to.deep.equal([503, 'upstream_unavailable']);
    expect(JSON.stringify(unfetched.body)).to.not.match(LEAKED);
    await simControl(stack.sim, 'provider', { name: 'coingecko', down: false });
    const fresh = await until<Stamped>('/api/v1/global', (r) => r.body.data?.stale === false, 'fresh global');
    expect(fresh.body.data.updatedAt).to.be.greaterThan(stale.body.data.updatedAt);
  });

  it('serves a CoinGecko category on demand and refuses an unknown one with 400 unknown_category', async () => {
    const l1 = await get<{ category: string; coins: { id: string }[]; stale: boolean }>('/api/v1/coins?cat=layer-1');
    expect(l1.status).to.equal(200);
    expect(l1.body.data.category).to.equal('layer-1');
    expect(l1.body.data.coins.map((c) => c.id)).to.include.members(['bitcoin', 'ethereum']);
    expect(l1.body.data.coins.map((c) => c.id)).to.not.include('dogecoin');
    for (const cat of ['no-such-category', 'depin', 'LAYER 1', '<script>']) {
      const r = await get(`/api/v1/coins?cat=${encodeURIComponent(cat)}`);
      expect([r.status, r.body.error?.code], cat).to.deep.equal([400, 'unknown_category']);
    }
  });

  it('serves the calendar of a year, the next 90 days without one, and 400 invalid_param outside 2023-2027', async () => {
    const year = await get<{ year: number; count: number; events: { ts: number; iso: string; type: string; impact: number }[] }>(
      '/api/v1/calendar?year=2026',
    );
    expect(year.status).to.equal(200);
    expect(year.body.data.events.filter((e) => e.type === 'fomc').map((e) => e.iso)).to.include('2026-03-18T18:00:00.000Z');
    expect(year.body.data.count).to.equal(year.body.data.events.length);
    const later = await get<{ events: { type: string }[]; gaps: { type: string; last_listed: string }[] }>('/api/v1/calendar?year=2027');
    expect(later.body.data.events.some((e) => e.type === 'fomc')).to.equal(true);
    // the BLS 2027 schedule is not in the data file: the answer says so rather than looking complete
    expect(later.body.data.gaps.map((g) => g.type)).to.deep.equal(['cpi', 'nfp']);
    expect((await get<{ gaps: unknown[] }>('/api/v1/calendar?year=2025')).body.data.gaps).to.deep.equal([]);
    const upcoming = await get<{ window: { days: number; from: number; to: number }; events: { ts: number }[] }>('/api/v1/calendar');
    expect(upcoming.body.data.window.days).to.equal(90);
    expect(upcoming.body.data.events.every((e) => e.ts >= upcoming.body.data.window.from && e.ts < upcoming.body.data.window.to)).to.equal(
      true,
    );
    for (const bad of ['2022', '2028', 'abc', '2026.5']) {
      const r = await get(`/api/v1/calendar?year=${bad}`);
      expect([r.status, r.body.error?.code], bad).to.deep.equal([400, 'invalid_param']);
    }
  });
});
