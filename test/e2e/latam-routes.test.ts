import { Queue, QueueEvents } from 'bullmq';
import { expect } from 'chai';
import type { RedisClient } from '../../shared/core/redis-client.js';
import { QUEUE_PREFIX, QUEUES } from '../../shared/queues/queue-names.js';
import { closeRedis, createBlockingRedis } from '../../shared/redis/connection.js';
import { hourOf, LatamStore } from '../../shared/latam/latam-store.js';
import { SnapshotStore } from '../../shared/snapshots/snapshot-store.js';
import { LATAM_JOBS, latamProcessor } from '../../workers/processors/latam/latam-processor.js';
import { getJson } from '../helpers/app.js';
import { simControl, useSimStack } from '../helpers/market-sim.js';
import { waitFor } from '../helpers/market-wait.js';
import { testRedisUrl } from '../helpers/redis.js';
import { expectedDolar } from '../helpers/latam.js';

interface Row {
  id: string;
  name: string;
  ask: number;
  bid: number;
  spread: number;
  agio?: number | null;
}
interface Common {
  ok: boolean;
  ts: number;
  updatedAt: number | null;
  stale: boolean;
  sourcesDown: string[];
  n: number;
  hist: Record<string, number | null>[];
}
interface Ar extends Common {
  mid: number | null;
  bestBuy: { id: string; ask: number; price: number } | null;
  bestSell: { id: string; bid: number; price: number } | null;
  rows: Row[];
  dropped: string[];
  dolar: Record<string, { ask: number; bid?: number } | null> | null;
  brecha: Record<string, number | null> | null;
}
interface Br extends Common {
  btcMid: number | null;
  usdtMid: number | null;
  btcUsd: number | null;
  usdbrl: number | null;
  usdbrlSource: string | null;
  fair: number | null;
  agioMid: number | null;
  btc: Row[];
  usdt: Row[];
  dropped: { btc: string[]; usdt: string[] };
}

/**
 * sim providers (CriptoYa, AwesomeAPI, PTAX, Mercado Bitcoin, Foxbit) + the feed (BTC/USD) -> latam
 * jobs (every 300 ms here) -> Redis -> /api/latam. Expected numbers are worked out by hand from the
 * sim's tables (ops/sim/providers/latam-market.ts) with BTC set to 60,000.
 */
describe('regional quotes end to end: sim providers -> latam jobs -> Redis -> API', function () {
  this.timeout(90_000);
  const stack = useSimStack({
    env: { PUBLIC_RATE_LIMIT: '1000000', REST_TIMEOUT_MS: '2000', FEED_LEASE_MS: '2000' },
    prepare: (sim) => simControl(sim, 'price', { symbol: 'BTCUSDT', price: 60_000 }),
    feed: true,
  });
  const ar = () => getJson<Ar>(`${stack.api.url}/api/latam/ar`);
  const br = () => getJson<Br>(`${stack.api.url}/api/latam/br`);
  const until = async <T>(read: () => Promise<{ status: number; body: T }>, ok: (body: T) => boolean, what: string): Promise<T> =>
    waitFor(
      async () => {
        const r = await read();
        expect(r.status).to.equal(200);
        return ok(r.body) ? r.body : undefined;
      },
      20_000,
      what,
      100,
    );
  const down = (name: string, isDown = true) => simControl(stack.sim, 'provider', { name, down: isDown });

  before(async () => {
    await waitFor(
      async () => (await getJson<{ data?: { price: number } }>(`${stack.api.url}/api/v1/price?symbol=BTC`)).body.data?.price === 60_000,
      20_000,
      'BTC at 60,000 from the feed',
    );
  });

  it('answers ok and stale with no venues before the first quote, never an error', async () => {
    for (const read of [ar, br]) {
      const r = await read();
      expect(r.status).to.equal(200);
      expect(r.body).to.include({ ok: true, stale: true, n: 0, updatedAt: null });
      expect(r.body.hist).to.deep.equal([]);
    }
  });

  it('Argentina: drops the one-sided and the far-off venue, mid 1199, brecha against each reference dollar', async () => {
    await stack.startWorker({
      processors: [latamProcessor],
      // no history job: the refresh alone must give each region the current hour's point
      schedules: [{ id: 'test-latam-refresh', queue: QUEUES.latam, repeat: { every: 300 }, job: { name: LATAM_JOBS.refresh } }],
    });
    const q = await until(ar, (b) => b.n > 0 && !b.stale, 'a fresh Argentine quote');
    // two-sided mids: fiwind 1196, buenbit 1196.545, ripio 1197.805, letsbit 1199, lemoncash 1200, belo 1202,
    // binancep2p 1207, tiendacrypto 1635; median 1199.5, tiendacrypto is 36 % off; median of the seven left: 1199
    expect(q.dropped).to.deep.equal(['tiendacrypto']);
    expect(q.n).to.equal(7);
    expect(q.mid).to.equal(1199);
    expect(q.rows.map((r) => r.id)).to.deep.equal(['fiwind', 'letsbit', 'lemoncash', 'buenbit', 'belo', 'ripio', 'binancep2p']);
    expect(q.rows.find((r) => r.id === 'ripio')).to.include({ ask: 1214.54, bid: 1181.07, name: 'Ripio' });
    // (1206 - 1186) / 1196 = 1.672 %
    expect(q.rows[0]).to.deep.equal({ id: 'fiwind', name: 'Fiwind', ask: 1206, bid: 1186, spread: 1.67 });
    // the original's price beside ask and bid
    expect(q.bestBuy).to.deep.include({ id: 'fiwind', ask: 1206, price: 1206 });
    expect(q.bestSell).to.deep.include({ id: 'binancep2p', bid: 1199, price: 1199 });
    // each dollar an object with its ask (and the blue's bid), by the original's Spanish names and the earlier English ones
    expect(q.dolar).to.deep.equal(expectedDolar({ oficial: 1050, blue: 1230, mep: 1180, ccl: 1200, tarjeta: 1365 }, { blue: 1210 }));
    // 1199/1050 - 1 = 14.19 %, 1199/1230 - 1 = -2.52 %, 1199/1180 - 1 = 1.61 %, 1199/1200 - 1 = -0.08 %, 1199/1365 - 1 = -12.16 %
    expect(q.brecha).to.deep.equal({ oficial: 14.19, blue: -2.52, mep: 1.61, ccl: -0.08, tarjeta: -12.16, official: 14.19, card: -12.16 });
    expect(q.sourcesDown).to.deep.equal([]);
  });

  it('Brazil: fee-inclusive rows, BTC/USD from the feed, AwesomeAPI dollar, agio per venue', async () => {
    const q = await until(br, (b) => b.n > 0 && !b.stale, 'a fresh Brazilian quote');
    expect(q).to.include({ btcUsd: 60_000, usdbrl: 5.4, usdbrlSource: 'awesomeapi', fair: 324_000 });
    expect(q.dropped.btc).to.deep.equal(['bitpreco']);
    const ids = q.btc.map((r) => r.id);
    expect(ids).to.have.members(['mercado-bitcoin', 'foxbit', 'binance', 'bitso', 'novadax', 'brasilbitcoin']);
    expect(ids).to.not.include('mercadobitcoin');
    expect(q.n).to.equal(6);
    // Mercado Bitcoin: book 325,621.30 / 324,970.70 (60,000 x 5.4 x 1.004 +- 0.1 %), plus the 0.7 % taker fee
    const mb = q.btc.find((r) => r.id === 'mercado-bitcoin');
    expect(mb).to.include({ ask: 327_900.65, bid: 322_695.91 });
    // 327,900.6491 / 324,000 - 1 = 1.20 %
    expect(mb?.agio).to.equal(1.2);
    // binance via CriptoYa (fees included there): 324,486.16 / 324,000 - 1 = 0.15 %
    expect(q.btc[0]).to.include({ id: 'binance', ask: 324_486.16, agio: 0.15 });
    // agios 0.15, 0.50, 0.70, 0.85, 0.85, 1.20: median (0.7010 + 0.8515) / 2 = 0.776
    expect(q.agioMid).to.be.closeTo(0.776, 0.006);
    // mids 324,324, 324,650.43, 324,972, 325,298.28, 325,620, 325,944: median 325,135.14
    expect(q.btcMid).to.equal(325_135.14);
  });

  it('Argentina: CriptoYa down -> the last quote with stale: true; back up -> fresh', async () => {
    const fresh = (await ar()).body;
    await down('criptoya');
    const stale = await until(ar, (b) => b.stale, 'a stale Argentine quote');
    expect(stale.sourcesDown).to.have.members(['criptoya-usdt-ars', 'criptoya-dolar']);
    expect([stale.mid, stale.n, stale.rows]).to.deep.equal([fresh.mid, fresh.n, fresh.rows]);
    const brStale = await until(br, (b) => b.stale, 'Brazil stale too (CriptoYa BRL)');
    expect(brStale.sourcesDown).to.deep.equal(['criptoya-brl']);
    expect(brStale.btc.map((r) => r.id)).to.include('binance');
    await down('criptoya', false);
    const again = await until(ar, (b) => !b.stale, 'a fresh Argentine quote again');
    expect(again.updatedAt).to.be.greaterThan(stale.updatedAt ?? 0);
    expect(again.sourcesDown).to.deep.equal([]);
    await until(br, (b) => !b.stale, 'a fresh Brazilian quote again');
  });

  it("Brazil: AwesomeAPI down -> the central bank's PTAX, still fresh; PTAX down too -> stale; both back -> AwesomeAPI", async () => {
    await down('awesomeapi');
    const ptax = await until(br, (b) => b.usdbrlSource === 'bcb-ptax', 'the PTAX dollar');
    // (5.395 + 5.3956) / 2
    expect(ptax).to.include({ usdbrl: 5.3953, stale: false, fair: 323_718 });
    await down('bcb-ptax');
    const stale = await until(br, (b) => b.stale, 'no dollar source');
    expect(stale.sourcesDown).to.deep.equal(['usdbrl']);
    expect(stale.usdbrl).to.equal(5.3953);
    await down('awesomeapi', false);
    await down('bcb-ptax', false);
    const back = await until(br, (b) => !b.stale && b.usdbrlSource === 'awesomeapi', 'AwesomeAPI again');
    expect(back.usdbrl).to.equal(5.4);
  });

  it('Brazil: Mercado Bitcoin down -> its last quote is kept and the answer is stale; back up -> fresh', async () => {
    await down('mercado-bitcoin');
    const stale = await until(br, (b) => b.stale, 'a stale Brazilian quote');
    expect(stale.sourcesDown).to.deep.equal(['mercado-bitcoin']);
    expect(stale.btc.find((r) => r.id === 'mercado-bitcoin')).to.include({ ask: 327_900.65 });
    await down('mercado-bitcoin', false);
    await until(br, (b) => !b.stale, 'a fresh Brazilian quote');
  });

  it('keeps its own hourly history, from the first fresh refresh after a start on (before the hourly job runs)', async () => {
    const a = await until(ar, (b) => b.hist.length > 0, 'an Argentine history point');
    const hour = Math.floor(Date.now() / 3_600_000) * 3_600_000;
    expect(a.hist).to.have.length(1);
    expect(a.hist[0]).to.deep.include({ mid: 1199, ask: 1206, bid: 1199, blue: 1230, official: 1050 });
    expect(a.hist[0].t).to.be.within(hour - 3_600_000, hour);
    const b = await until(br, (x) => x.hist.length > 0, 'a Brazilian history point');
    expect(b.hist[0]).to.include({ btcUsd: 60_000, btc: 325_135.14, btcMid: 325_135.14 });
  });
});

describe('regional quotes: the Brazilian history before the feed has a BTC/USD price', function () {
  this.timeout(90_000);
  let queueConnection: RedisClient;
  let queue: Queue;
  let events: QueueEvents;
  const br = () => getJson<Br>(`${stack.api.url}/api/latam/br`);
  /** The answer built after `t` (the route caches its answer for a second). */
  const brAfter = (t: number): Promise<Br> =>
    waitFor(
      async () => {
        const body = (await br()).body;
        return body.ts > t ? body : undefined;
      },
      5_000,
      'an answer built after the history job',
      100,
    );
  /** Runs the history job once, as its schedule would, and answers what it recorded per region. */
  const recordHistory = async (): Promise<{ ar: boolean; br: boolean }> => {
    const job = await queue.add(LATAM_JOBS.history, {});
    return (await job.waitUntilFinished(events, 20_000)) as { ar: boolean; br: boolean };
  };

  const stack = useSimStack({
    env: { PUBLIC_RATE_LIMIT: '1000000', REST_TIMEOUT_MS: '2000', FEED_LEASE_MS: '2000' },
    prepare: (sim) => simControl(sim, 'price', { symbol: 'BTCUSDT', price: 60_000 }),
  });
  before(async () => {
    queueConnection = createBlockingRedis(testRedisUrl());
    queue = new Queue(QUEUES.latam, { connection: queueConnection, prefix: QUEUE_PREFIX });
    events = new QueueEvents(QUEUES.latam, { connection: queueConnection, prefix: QUEUE_PREFIX });
    await events.waitUntilReady();
    // the quotes refresh on their own; the feed is not started, so BTC/USD has no price yet
    await stack.startWorker({
      processors: [latamProcessor],
      schedules: [{ id: 'test-latam-refresh', queue: QUEUES.latam, repeat: { every: 300 }, job: { name: LATAM_JOBS.refresh } }],
    });
  });
  after(async () => {
    await events?.close();
    await queue?.close();
    await closeRedis(queueConnection);
  });

  it('keeps no point with btcUsd null (the first minutes after a start), and the first point with a price carries btc', async () => {
    const early = await waitFor(
      async () => {
        const r = (await br()).body;
        return r.n > 0 && !r.stale ? r : undefined;
      },
      20_000,
      'a fresh Brazilian quote without BTC/USD',
      100,
    );
    expect(early).to.include({ btcUsd: null, agioMid: null });
    // two points an earlier version kept: one without BTC/USD, one without btc
    const store = new LatamStore(stack.redis, new SnapshotStore(stack.redis));
    const hour = hourOf(Date.now());
    const older = { t: hour - 2 * 3_600_000, btcMid: 320_000, usdtMid: 5.4, usdbrl: 5.4, btcUsd: null, agioMid: null };
    const old = { t: hour - 3_600_000, btcMid: 321_000, usdtMid: 5.4, usdbrl: 5.4, btcUsd: 59_000, agioMid: 0.7 };
    for (const point of [older, old]) await store.appendHistory('br', point, Date.now());
    const recorded = await recordHistory();
    expect((await brAfter(Date.now())).hist).to.deep.equal([{ ...old, btc: 321_000 }]);
    expect(recorded).to.deep.equal({ ar: true, br: false });

    await stack.startFeed();
    await waitFor(
      async () => ((await br()).body.btcUsd === 60_000 ? true : undefined),
      20_000,
      'the Brazilian quote with BTC/USD from the feed',
      100,
    );
    expect(await recordHistory()).to.deep.equal({ ar: true, br: true });
    const { hist } = await brAfter(Date.now());
    expect(hist).to.have.length(2);
    expect(hist[1]).to.include({ t: hour, btcUsd: 60_000, btc: 325_135.14 });
  });
});
