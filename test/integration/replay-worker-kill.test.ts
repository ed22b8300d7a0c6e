// @three-masters: a replay resumed after its worker is killed
/**
 * A replay's clock in a worker process killed mid-replay (SIGKILL), then in a worker role closed and
 * started again (a pause): the cursor stops while no clock runs, resumes from its frontier, sweeps
 * every minute in order, and settles each position once.
 *
 * The scripted day (flat at 50000): minute 30 high 50600 (the trailing long ratchets to 50094 and
 * is stopped at minute 31), minute 40 low 48900 (the long with sl 49000 stops), minute 50 high 50900
 * (the 50x short is liquidated), minute 60 high 51100 (the long with tp 51000 takes profit).
 */
import { expect } from 'chai';
import type { RedisClient } from '../../shared/core/redis-client.js';
import { configWith } from '../../shared/config.js';
import { createLogger } from '../../shared/core/logger.js';
import { QUEUE_PREFIX, QUEUES } from '../../shared/queues/queue-names.js';
import { closeRedis } from '../../shared/redis/connection.js';
import { keys } from '../../shared/redis/keys.js';
import type { RunningRole } from '../../workers/runtime.js';
import { replayProcessor } from '../../workers/processors/replay/replay-processor.js';
import { startWorkerRole } from '../../workers/worker-role.js';
import { startTestApi, type TestApi } from '../helpers/app.js';
import { waitFor } from '../helpers/market-wait.js';
import { simControl, startScriptedSim, type SimHandle } from '../helpers/market-sim.js';
import { spawnService, type ServiceProcess } from '../helpers/process.js';
import { freshRedis, keysMatching, testRedisUrl } from '../helpers/redis.js';
import { MINUTE } from '../helpers/sweep.js';
import { accountServices, botCall, createTrader, TestPrices, type Trader } from '../helpers/trading.js';

const DAY = '2026-03-10';
const S = Date.UTC(2026, 2, 10);
const BASE = 50_000;
const at = (minute: number): number => S + minute * MINUTE;
const SPEED = 240;

describe('a replay whose worker is killed, then paused', function () {
  this.timeout(120_000);
  let redis: RedisClient;
  let sim: SimHandle;
  let api: TestApi;
  let child: ServiceProcess | undefined;
  let role: RunningRole | undefined;

  before(async () => {
    redis = await freshRedis();
    sim = await startScriptedSim();
    await simControl(sim, 'day', {
      symbol: 'BTCUSDT',
      day: DAY,
      base: BASE,
      minutes: [
        { minute: at(30), open: BASE, high: 50_600, low: BASE, close: BASE },
        { minute: at(40), open: BASE, high: BASE, low: 48_900, close: BASE },
        { minute: at(50), open: BASE, high: 50_900, low: BASE, close: BASE },
        { minute: at(60), open: BASE, high: 51_100, low: BASE, close: BASE },
      ],
    });
    await new TestPrices(redis).set({ BTCUSDT: 70_000 });
    api = await startTestApi(redis, { MARKET_SOURCE: 'sim', SIM_URL: sim.url });
  });
  after(async () => {
    if (child && child.child.exitCode === null) child.child.kill('SIGKILL');
    await role?.stop();
    await api.close();
    await sim.close();
    await closeRedis(redis);
  });

  it('resumes from its frontier: no minute skipped, nothing settled twice', async () => {
    child = spawnService({ ROLE: 'worker', REDIS_URL: testRedisUrl(), MARKET_SOURCE: 'sim', SIM_URL: sim.url, LOG_LEVEL: 'info' });
    await child.waitForLine((line) => line.includes('worker role started'), 60_000);

    const t: Trader = await createTrader(accountServices(redis), { plan: 'business' });
    const call = <T = Record<string, unknown>>(method: 'GET' | 'POST', path: string, body?: unknown) =>
      botCall<T>(api.url, t, method, path, body);
    const started = await call<{ replay: { id: string } }>('POST', '/replay', { symbol: 'BTC', day: DAY, speed: SPEED });
    expect(started.status).to.equal(200);
    const id = started.body.replay.id;
    const book = `~${id}`;
    const opened = await Promise.all(
      [
        { side: 'long', leverage: 10, sl: 49_000 },
        { side: 'long', leverage: 10, tp: 51_000 },
        { side: 'short', leverage: 50 },
        { side: 'long', leverage: 10, trail_pct: 1 },
      ].map((body) => call<{ position: { id: string } }>('POST', '/open', { symbol: 'BTC', margin_usd: 100, ...body })),
    );
    const ids = opened.map((r) => r.body.position.id);
    const stateKey = keys.replayState(t.accountId, await keyIdOf(redis, t));
    const swept = async (): Promise<number> => Number(await redis.hget(stateKey, 'swept_to'));
    await waitFor(async () => (await swept()) >= at(10), 30_000, 'ten minutes swept by the child');
    child.child.kill('SIGKILL');
    await child.exit;

    // no clock runs: once the schedule is two minutes past the frontier, the cursor is still inside the first minute not swept
    const frozen = await swept();
    const startedAt = Number(await redis.hget(stateKey, 'started_at'));
    const twoMinutesOn = startedAt + (frozen + 2 * MINUTE - S) / SPEED;
    await waitFor(() => Date.now() >= twoMinutesOn, 5_000, 'the schedule two minutes past the frontier');
    const cursor = (await call<{ cursor_ts: number }>('GET', '/replay')).body.cursor_ts;
    expect(cursor).to.equal(frozen + MINUTE - 1);
    expect(await swept()).to.equal(frozen);

    // a dead worker's lock lapses after its lock duration; deleting it (and the stalled-check throttle) stands in for the wait
    await redis.del(`${QUEUE_PREFIX}:${QUEUES.replay}:${id}:lock`, `${QUEUE_PREFIX}:${QUEUES.replay}:stalled-check`);
    const config = configWith({ REDIS_URL: testRedisUrl(), MARKET_SOURCE: 'sim', SIM_URL: sim.url });
    const ctx = { config, redisUrl: testRedisUrl(), redis, logger: createLogger(config) };
    const only = { processors: [replayProcessor], schedules: [], relay: false };
    role = await startWorkerRole(ctx, only);
    await waitFor(async () => (await swept()) >= at(35), 60_000, 'the taken-over clock past minute 35');
    // a pause: the role closes (its clock hands the job back) and another starts
    await role.stop();
    const paused = await swept();
    role = await startWorkerRole(ctx, only);
    await waitFor(async () => (await swept()) >= at(62), 60_000, 'the clock past minute 61 after the pause');
    expect(paused).to.be.at.least(at(35));

    // every position closed once, at its minute
    const closed = new Map(
      (await redis.hvals(keys.bookClosed(t.accountId, book))).map((raw) => {
        const p = JSON.parse(raw) as { id: string; closed_ts: number; close_reason: string; pnl_usd: number };
        return [p.id, p];
      }),
    );
    expect(ids.map((pid) => [closed.get(pid)?.close_reason, closed.get(pid)?.closed_ts])).to.deep.equal([
      ['stop_loss', at(41)],
      ['take_profit', at(61)],
      ['liquidation', at(51)],
      ['trailing_stop', at(32)],
    ]);
    const stats = await redis.hgetall(keys.bookStats(t.accountId, book));
    const cents = [...closed.values()].reduce((sum, p) => sum + Math.round(p.pnl_usd * 100), 0);
    expect({ closed: Number(stats.closed), liquidations: Number(stats.liquidations), cents: Number(stats.realized_cents) }).to.deep.equal({
      closed: 4,
      liquidations: 1,
      cents,
    });
    const events = await redis.xrange(keys.replayEvents(t.accountId), '-', '+');
    const closes = events.filter(([, fields]) => fields[1] === 'position.closed' || fields[1] === 'position.liquidated');
    expect(closes).to.have.length(4);
  });
});

/** The key id of the trader's key (the replay state is per key). */
async function keyIdOf(redis: RedisClient, t: Trader): Promise<string> {
  const found = await keysMatching(redis, `acct:{${t.accountId}}:replay:*`);
  const state = found.find((k) => !k.endsWith(':events') && !k.endsWith(':books'));
  if (!state) throw new Error('no replay state');
  return state.slice(state.lastIndexOf(':') + 1);
}
