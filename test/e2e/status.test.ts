import { expect } from 'chai';
import { Queue, Worker } from 'bullmq';
import { QUEUE_PREFIX, QUEUES } from '../../shared/queues/queue-names.js';
import { closeRedis, createBlockingRedis } from '../../shared/redis/connection.js';
import type { StatusView } from '../../shared/status/status-service.js';
import { liveSweepProcessor } from '../../workers/processors/sweep/live-sweep-processor.js';
import { statusSampler } from '../../workers/processors/status/status-sampler.js';
import { schedulesFor } from '../../workers/schedules.js';
import { getJson } from '../helpers/app.js';
import { simControl, useSimStack } from '../helpers/market-sim.js';
import { waitFor } from '../helpers/market-wait.js';
import { testRedisUrl } from '../helpers/redis.js';
import { CONNECTION_REPORT_MS } from '../../shared/status/connection-report.js';

/**
 * The status page on the whole stack: the simulated exchange, a feed, a worker running the live
 * sweep and the status sampler (every second, from STATUS_SAMPLE_MS), and the API. A feed reads down
 * after 3 s of silence and the answer is cached 1 s (production: 15 s and 10 s, the same rules,
 * status-rules.test.ts): a connector the sim drops must read down within the silence, the cache and
 * its holder's connection report (every 5 s), with a margin.
 */
const FEED_STALE_MS = 3_000;
const CACHE_MS = 1_000;
const DOWN_WITHIN_MS = FEED_STALE_MS + CACHE_MS + CONNECTION_REPORT_MS + 3_000;

describe('GET /api/status on the sim stack', function () {
  this.timeout(120_000);
  const stack = useSimStack({
    // reconnects back off to 2 s at most, so a venue set back up is heard again soon
    env: {
      FEED_LEASE_MS: '2000',
      STATUS_SAMPLE_MS: '1000',
      STATUS_FEED_STALE_MS: String(FEED_STALE_MS),
      STATUS_CACHE_MS: String(CACHE_MS),
      STREAM_RECONNECT_MAX_MS: '2000',
      PUBLIC_RATE_LIMIT: '100000',
    },
    feed: true,
  });
  before(async () => {
    const watched: string[] = [QUEUES.liveSweep, QUEUES.status];
    await stack.startWorker({
      processors: [liveSweepProcessor, statusSampler],
      schedules: schedulesFor(stack.ctx.config).filter((s) => watched.includes(s.queue)),
      relay: false,
    });
  });

  const status = async (): Promise<StatusView> => {
    const response = await getJson<StatusView>(`${stack.api.url}/api/status`);
    expect(response.status, JSON.stringify(response.body)).to.equal(200);
    return response.body;
  };
  const today = (view: StatusView) => view.days[view.days.length - 1];

  it('names every component with its state, keyless, and has today in days once the sampler ran', async () => {
    const view = await waitFor(
      async () => {
        const v = await status();
        return v.now.state === 'up' && today(v).samples > 0 && v;
      },
      40_000,
      'every component up and a sample today',
      500,
    );
    expect(view.ok).to.equal(true);
    expect(Object.keys(view.now.feeds).sort()).to.deep.equal(['binance', 'bitget', 'bybit', 'okx']);
    for (const feed of Object.values(view.now.feeds)) {
      expect(feed.holder).to.be.a('string');
      expect(feed.message_age_ms).to.be.a('number').below(15_000);
    }
    expect(Object.keys(view.now.liquidations)).to.include.members(['binance', 'bybit', 'okx', 'gate', 'htx']);
    expect(view.now.liquidations.gate.holder).to.equal(view.now.feeds.binance.holder);
    for (const liq of Object.values(view.now.liquidations)) expect(liq.open).to.be.at.least(1);
    expect(view.now.redis.state).to.equal('up');
    expect(Object.keys(view.now.queues.failed).sort()).to.deep.equal(Object.values(QUEUES).sort());
    expect(view.now.scheduler).to.include({ state: 'up', id: 'sweep-quick' });
    expect(view.now).to.include({ cron: 'up', collector: 'up' });
    expect(view.days).to.have.length(90);
    expect(today(view).day).to.equal(new Date().toISOString().slice(0, 10));
    // the first samples may precede the first prices: only Redis was up all along
    expect(today(view).availability.redis).to.equal(100);
    expect(Object.keys(today(view).availability)).to.include.members(['feed:binance', 'liq:gate', 'queues', 'scheduler']);
    expect(view.days[0].samples).to.equal(0);
    // cached: the next answer is the same reading, or one taken a whole cache period later
    const next = (await status()).now.ts;
    expect(next === view.now.ts || next - view.now.ts >= CACHE_MS, `readings at ${view.now.ts} and ${next}`).to.equal(true);
    const ping = await getJson<{ data: { endpoints: string[] } }>(`${stack.api.url}/api/v1/ping`);
    expect(ping.body.data.endpoints).to.include('/api/status');
  });

  it("counts each queue's failed jobs as BullMQ does", async () => {
    const connections = [createBlockingRedis(testRedisUrl()), createBlockingRedis(testRedisUrl())];
    const queue = new Queue(QUEUES.orders, { connection: connections[0], prefix: QUEUE_PREFIX });
    const worker = new Worker(
      QUEUES.orders,
      () => {
        throw new Error('planted failure');
      },
      { connection: connections[1], prefix: QUEUE_PREFIX },
    );
    try {
      const failed = new Promise((resolve) => worker.once('failed', resolve));
      await queue.add('planted', {}, { attempts: 1 });
      await failed;
      const counts = await queue.getJobCounts('failed');
      expect(counts.failed).to.equal(1);
      const view = await waitFor(
        async () => {
          const v = await status();
          return v.now.queues.failed.orders === counts.failed && v;
        },
        15_000,
        'the failed job counted',
        500,
      );
      expect(view.now.queues.failed_total).to.be.at.least(1);
    } finally {
      await worker.close();
      await queue.close();
      await closeRedis(...connections);
    }
  });

  it('shows a feed connector down soon after the sim drops it, and up again after', async () => {
    await waitFor(async () => (await status()).now.feeds.binance.state === 'up', 30_000, 'binance up', 500);
    await simControl(stack.sim, 'provider', { name: 'binance', down: true });
    const droppedAt = Date.now();
    const down = await waitFor(
      async () => {
        const v = await status();
        return v.now.feeds.binance.state === 'down' && v.now.liquidations.binance.state === 'down' && v;
      },
      30_000,
      'binance down',
      500,
    );
    expect(Date.now() - droppedAt).to.be.below(DOWN_WITHIN_MS);
    // the feed still holds the lease: the connector runs, the venue is silent
    expect(down.now.feeds.binance.holder).to.be.a('string');
    expect(down.now.feeds.binance.reason).to.match(/^no message for \d+ s$/);
    expect(down.now.feeds.bybit.state).to.equal('up');
    // the liquidation stream shares the venue: its holder reports no open socket
    expect(down.now.liquidations.binance).to.include({ open: 0, reason: 'no open connection' });
    expect(down.now).to.include({ state: 'degraded', collector: 'degraded' });

    await simControl(stack.sim, 'provider', { name: 'binance', down: false });
    const back = await waitFor(
      async () => {
        const v = await status();
        // its liquidation stream is up again with its holder's next connection report
        return v.now.state === 'up' && today(v).availability['feed:binance'] < 100 && v;
      },
      45_000,
      'binance up again, its down samples counted',
      500,
    );
    expect([back.now.feeds.binance.state, back.now.liquidations.binance.state]).to.deep.equal(['up', 'up']);
    expect(today(back).availability.redis).to.equal(100);
  });
});
