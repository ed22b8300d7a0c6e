// @three-masters: a sweep resumed after its worker is killed
import { createDomain } from '../../shared/domain.js';
import { expect } from 'chai';
import { Worker } from 'bullmq';
import type { RedisClient } from '../../shared/core/redis-client.js';
import { configWith } from '../../shared/config.js';
import { createLogger } from '../../shared/core/logger.js';
import { computeClose } from '../../shared/engine/close-record.js';
import type { BookRef } from '../../shared/paper/positions/position-types.js';
import { sweepJobId } from '../../shared/queues/job-types.js';
import { QUEUE_PREFIX, QUEUES } from '../../shared/queues/queue-names.js';
import { createSweepProducer } from '../../shared/queues/sweep-producer.js';
import { closeRedis, createBlockingRedis } from '../../shared/redis/connection.js';
import { keys } from '../../shared/redis/keys.js';
import type { Processor } from '../../workers/processors/registry.js';
import { candleSweepProcessor } from '../../workers/processors/sweep/candle-sweep-processor.js';
import { waitFor } from '../helpers/market-wait.js';
import { spawnService, type ServiceProcess } from '../helpers/process.js';
import { freshRedis, testRedisUrl } from '../helpers/redis.js';
import { bookMoney, candle, MINUTE, seedPositions, testPosition } from '../helpers/sweep.js';

const A: BookRef = { accountId: 'acctkill', book: 'main' };
const N = 20_000;

describe('a worker process killed in the middle of a sweep', function () {
  this.timeout(120_000);
  let redis: RedisClient;
  let child: ServiceProcess | undefined;
  let worker: Worker | undefined;
  let connection: RedisClient | undefined;
  let processor: Processor | undefined;

  before(async () => {
    redis = await freshRedis();
  });
  after(async () => {
    if (child && child.child.exitCode === null) child.child.kill('SIGKILL');
    await worker?.close();
    await processor?.close?.();
    if (connection) await closeRedis(connection);
    await closeRedis(redis);
  });

  it('leaves its job to another worker, which settles the rest; no position settles twice', async () => {
    const positions = Array.from({ length: N }, () => testPosition(A, { symbol: 'ETHUSDT', side: 'long', entry: 100, sl: 97 }));
    for (let i = 0; i < N; i += 2_000) await seedPositions(redis, A, positions.slice(i, i + 2_000));
    // the real entry point as a worker role (every processor and schedule); no feed, so its live sweep finds no prices
    child = spawnService({
      ROLE: 'worker',
      REDIS_URL: testRedisUrl(),
      MARKET_SOURCE: 'sim',
      SIM_URL: 'http://127.0.0.1:9',
      LOG_LEVEL: 'info',
    });
    await child.waitForLine((line) => line.includes('worker role started'), 60_000);

    const job = candle('ETHUSDT', Math.ceil(Date.now() / MINUTE) * MINUTE, 96, 100);
    const producer = createSweepProducer(testRedisUrl());
    try {
      await producer.enqueue(job);
    } finally {
      await producer.close();
    }
    const closedNow = async (): Promise<number> => Number((await redis.hget(keys.bookStats(A.accountId, A.book), 'closed')) ?? 0);
    await waitFor(async () => (await closedNow()) > 0, 60_000, 'the first settlements', 2);
    child.child.kill('SIGKILL');
    await child.exit;

    // A dead worker's job lock lapses after its lock duration and the stalled check of a live
    // worker moves the job back to wait. Deleting the lock (and the cluster's stalled-check
    // throttle) stands in for waiting out those 30 s.
    const id = sweepJobId(job.symbol, job.minute);
    await redis.del(`${QUEUE_PREFIX}:${QUEUES.sweep}:${id}:lock`, `${QUEUE_PREFIX}:${QUEUES.sweep}:stalled-check`);
    const config = configWith({ REDIS_URL: testRedisUrl() });
    const retrying = candleSweepProcessor.create({
      domain: createDomain({ config, redis }),
      redisUrl: testRedisUrl(),
      logger: createLogger(config),
    });
    processor = retrying;
    connection = createBlockingRedis(testRedisUrl());
    worker = new Worker(QUEUES.sweep, (j, token) => retrying.process(j, token), { connection, prefix: QUEUE_PREFIX, stalledInterval: 200 });
    // a job's result is written when it completes (the dead worker never completed it)
    const done = await waitFor(
      () => redis.hget(`${QUEUE_PREFIX}:${QUEUES.sweep}:${id}`, 'returnvalue'),
      60_000,
      'the retried job to finish',
    );
    const retried = (JSON.parse(done) as { positions: { settled: number } }).positions.settled;

    // the dead worker settled part of the minute, the retry the rest
    expect(retried).to.be.above(0).and.below(N);
    expect(await redis.hlen(keys.bookOpen(A.accountId, A.book))).to.equal(0);
    expect(await redis.hlen(keys.bookClosed(A.accountId, A.book))).to.equal(N);
    const each = computeClose(positions[0], 97, 100, 0, Date.now(), 'stop_loss').cents;
    expect(await bookMoney(redis, A)).to.deep.equal({ closed: N, liquidations: 0, realizedCents: N * each });
    expect(await redis.zcard(keys.triggerIndex('ETHUSDT', 'sl', 'long'))).to.equal(0);
  });
});
