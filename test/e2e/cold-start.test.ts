import { expect } from 'chai';
import { Queue } from 'bullmq';
import { QUEUE_PREFIX, QUEUES } from '../../shared/queues/queue-names.js';
import { closeRedis, createBlockingRedis } from '../../shared/redis/connection.js';
import { latamProcessor } from '../../workers/processors/latam/latam-processor.js';
import { screenerProcessor } from '../../workers/processors/screener/screener-processor.js';
import { SCHEDULES } from '../../workers/schedules.js';
import { getJson } from '../helpers/app.js';
import { simControl, useSimStack } from '../helpers/market-sim.js';
import { waitFor } from '../helpers/market-wait.js';
import { testRedisUrl } from '../helpers/redis.js';

/**
 * A new deployment: the worker starts before the feed has a symbol universe or a price, so the
 * first screener and regional-quote runs (which run at once) find nothing to work with. With the
 * real schedules (once a minute) the next runs would come a minute later.
 */
describe('cold start: each refresh runs again as soon as its inputs exist', function () {
  this.timeout(90_000);
  const stack = useSimStack({
    env: { PUBLIC_RATE_LIMIT: '1000000', FEED_LEASE_MS: '2000', SCREENER_SIZE: '6' },
    prepare: (sim) => simControl(sim, 'price', { symbol: 'BTCUSDT', price: 60_000 }),
  });

  it('serves the screener and the Brazil quote with its BTC price within seconds of the feed starting, not a schedule period later', async () => {
    const schedules = SCHEDULES.filter((s) => s.id === 'screener-refresh' || s.id === 'latam-refresh');
    expect(schedules.map((s) => s.repeat)).to.deep.equal([{ every: 60_000 }, { every: 60_000 }]);
    await stack.startWorker({ processors: [screenerProcessor, latamProcessor], schedules, relay: false });
    const inspectConnection = createBlockingRedis(testRedisUrl());
    const screenerQueue = new Queue(QUEUES.screener, { connection: inspectConnection, prefix: QUEUE_PREFIX });
    try {
      // the first runs are done: a Brazil quote without the feed's BTC price, a screener with nothing to score
      const first = await waitFor(
        async () => {
          const r = await getJson<{ n: number; btcUsd: number | null }>(`${stack.api.url}/api/latam/br`);
          return r.body.n > 0 ? r.body : undefined;
        },
        20_000,
        'the first Brazil quote',
      );
      expect(first.btcUsd).to.equal(null);
      const [done] = await waitFor(
        async () => {
          const jobs = await screenerQueue.getJobs(['completed']);
          return jobs.length > 0 ? jobs : undefined;
        },
        20_000,
        'the first screener run',
      );
      expect(done.returnvalue).to.deep.include({ waiting: 'symbol universe' });
      expect((await getJson(`${stack.api.url}/api/v1/screener`)).status).to.equal(503);

      await stack.startFeed();
      const deadline = Date.now() + 30_000;
      const br = await waitFor(
        async () => {
          const r = await getJson<{ btcUsd: number | null; agioMid: number | null }>(`${stack.api.url}/api/latam/br`);
          return r.body.btcUsd === 60_000 ? r.body : undefined;
        },
        deadline - Date.now(),
        'the Brazil quote with the feed BTC price',
        100,
      );
      expect(br.agioMid).to.be.a('number');
      const screener = await waitFor(
        async () => {
          const r = await getJson<{ data?: { rows: unknown[] } }>(`${stack.api.url}/api/v1/screener`);
          return r.status === 200 ? r.body.data : undefined;
        },
        deadline - Date.now(),
        'the screener',
        100,
      );
      expect(screener.rows.length).to.be.at.least(1);
    } finally {
      await screenerQueue.close();
      await closeRedis(inspectConnection);
    }
  });
});
