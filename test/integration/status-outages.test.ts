import { expect } from 'chai';
import type { RedisClient } from '../../shared/core/redis-client.js';
import { RedisOutageLog } from '../../shared/redis/connection.js';
import { StatusService } from '../../shared/status/status-service.js';
import { StatusStore } from '../../shared/status/status-store.js';
import { FEED_STALE_MS, utcDay } from '../../shared/status/status-rules.js';
import { useFreshRedis } from '../helpers/redis.js';

const PERIOD = 1_000;
/** 2026-03-01 10:00 UTC */
const T0 = Date.UTC(2026, 2, 1, 10);

describe('the status page keeps Redis and worker outages in its days', function () {
  this.timeout(15_000);
  let redis: RedisClient;
  useFreshRedis((fresh) => (redis = fresh), 'each');

  /** A status service on a clock the test moves, whose process "saw" Redis down between the instants given. */
  function service(redisDown: [number, number] | undefined) {
    let now = T0;
    const store = new StatusStore(redis, { feedVenues: [], liqVenues: [], queues: [], scheduler: { queue: 'quick-sweep', id: 'x' } });
    const outages = { downBetween: (from: number, to: number) => redisDown !== undefined && redisDown[0] <= to && redisDown[1] >= from };
    const status = new StatusService(store, { now: () => now }, PERIOD, outages, FEED_STALE_MS);
    return { status, at: (ts: number) => (now = ts) };
  }
  const today = async (status: StatusService) => (await status.view()).days.find((d) => d.day === utcDay(T0))!;

  it('counts the samples missed while no worker ran as the workers down, and Redis up', async () => {
    const { status, at } = service(undefined);
    await status.sample();
    // ten periods without a sample: nine were missed
    at(T0 + 10 * PERIOD);
    await status.sample();
    const day = await today(status);
    expect(day.availability.redis).to.equal(100);
    expect(day.samples).to.equal(11);
    // the watched scheduler does not exist here, so every sample has it down: 11 of 11
    expect(day.availability.scheduler).to.equal(0);
  });

  it('counts the samples missed while Redis was unreachable as Redis down', async () => {
    const { status, at } = service([T0 + 2 * PERIOD, T0 + 9 * PERIOD]);
    await status.sample();
    at(T0 + 10 * PERIOD);
    await status.sample();
    const day = await today(status);
    // 2 samples taken (Redis up), 9 missed (Redis down)
    expect(day.availability.redis).to.equal(Math.round((2 / 11) * 10_000) / 100);
    expect(day.availability.queues).to.equal(Math.round((2 / 11) * 10_000) / 100);
  });

  it('does not count a late sample as missed ones', async () => {
    const { status, at } = service(undefined);
    await status.sample();
    at(T0 + 1.9 * PERIOD);
    await status.sample();
    expect((await today(status)).samples).to.equal(2);
  });
});

describe('RedisOutageLog remembers the last outage', () => {
  it('answers whether Redis was unreachable between two instants', async () => {
    const log = new RedisOutageLog();
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' });
    const before = Date.now();
    expect(log.downBetween(0, before)).to.equal(false);
    log.onError(refused);
    expect(log.downBetween(before, Date.now())).to.equal(true);
    log.onReady();
    const after = Date.now() + 1;
    expect(log.downBetween(before, after)).to.equal(true);
    expect(log.downBetween(after + 1, after + 1000)).to.equal(false);
  });
});
