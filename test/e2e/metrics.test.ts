// @three-masters: queue counts over every master, the stream's pub/sub, the outbox relay
import { strict as assert } from 'node:assert';
import { Queue } from 'bullmq';
import type { RedisClient } from '../../shared/core/redis-client.js';
import type { PrometheusFamily } from 'parse-prometheus-text-format';
import { configWith } from '../../shared/config.js';
import { createDomain } from '../../shared/domain.js';
import { scrape as scrapeRegistry } from '../../shared/metrics/metrics.js';
import type { BookRef } from '../../shared/paper/positions/position-types.js';
import { createSweepProducer } from '../../shared/queues/sweep-producer.js';
import { candleSweepProcessor } from '../../workers/processors/sweep/candle-sweep-processor.js';
import { liveSweepProcessor } from '../../workers/processors/sweep/live-sweep-processor.js';
import { SCHEDULES } from '../../workers/schedules.js';
import { QUEUE_PREFIX, QUEUES } from '../../shared/queues/queue-names.js';
import { keys } from '../../shared/redis/keys.js';
import { startProcessMetrics, type ProcessMetrics } from '../../workers/metrics-listener.js';
import { startService, type RunningService } from '../../workers/service.js';
import { startWorkerRole } from '../../workers/worker-role.js';
import type { RunningRole } from '../../workers/runtime.js';
import { startTestApi, type TestApi } from '../helpers/app.js';
import { captureLog } from '../helpers/log-capture.js';
import { waitFor } from '../helpers/market-wait.js';
import { simControl, TRADING_SIM_ENV, useSimStack } from '../helpers/market-sim.js';
import { connectStream, indexOutbox, openedOutboxFields, useWebhookStack } from '../helpers/push.js';
import { labelValues, metricFamily, metricValue, parseMetrics, scrapeMetrics } from '../helpers/prometheus.js';
import { candle, MINUTE, seedPositions, testPosition } from '../helpers/sweep.js';
import { flushRedis, testRedisUrl, useFreshRedis } from '../helpers/redis.js';
import { accountServices, botCall, createTrader, TestPrices } from '../helpers/trading.js';
import { createLogger } from '../../shared/core/logger.js';

const TOKEN = 'metrics-test-token-0123456789';
const DASHBOARD_TOKEN = 'dashboard-test-token-0123456789';
const bearer = { authorization: `Bearer ${TOKEN}` };

const scrape = (url: string, headers: Record<string, string> = bearer) => scrapeMetrics(url, headers);
const DURATION = 'perpdesk_http_request_duration_seconds_count';
const count = (families: PrometheusFamily[], name: string, labels: Record<string, string>): number =>
  metricValue(families, name, labels) ?? 0;

describe('metrics', function () {
  this.timeout(30_000);
  let redis: RedisClient;
  let service: RunningService;
  let metricsUrl: string;
  useFreshRedis((fresh) => (redis = fresh));

  before(async () => {
    service = await startService(
      configWith({
        ROLE: 'api',
        REDIS_URL: testRedisUrl(),
        PORT: '0',
        HOST: '127.0.0.1',
        METRICS_TOKEN: TOKEN,
        OPS_TOKEN: DASHBOARD_TOKEN,
        TRUST_PROXY: 'loopback',
      }),
    );
    metricsUrl = `${service.apiUrl}/metrics`;
  });
  after(async () => {
    await service?.stop();
  });

  it('reports each queue job counts as the queue itself counts them', async () => {
    const queue = new Queue(QUEUES.orders, { connection: redis, prefix: QUEUE_PREFIX });
    try {
      await queue.add('expire', {}, { jobId: 'w1' });
      await queue.add('expire', {}, { jobId: 'w2' });
      await queue.add('expire', {}, { jobId: 'd1', delay: 600_000 });
      const families = await scrape(metricsUrl);
      const own = await queue.getJobCounts('waiting', 'active', 'delayed', 'failed');
      assert.deepEqual(own, { waiting: 2, active: 0, delayed: 1, failed: 0 });
      for (const [state, count] of Object.entries(own)) {
        assert.equal(metricValue(families, 'perpdesk_queue_jobs', { queue: QUEUES.orders, state }), count, state);
      }
      // every queue of the registry is listed, each with its four states
      for (const name of Object.values(QUEUES))
        assert.equal(metricValue(families, 'perpdesk_queue_jobs', { queue: name, state: 'failed' }), 0);
    } finally {
      await queue.obliterate({ force: true });
      await queue.close();
    }
  });

  it('counts requests by route template and status class, and rate-limit rejections by scope', async () => {
    const route = { method: 'GET', route: '/healthz', status_class: '2xx' };
    const before = await scrape(metricsUrl);
    for (let i = 0; i < 3; i++) assert.equal((await fetch(`${service.apiUrl}/healthz`)).status, 200);
    const rejectedBefore = metricValue(before, 'perpdesk_rate_limit_rejections_total', { scope: 'ip' }) ?? 0;
    // one address past the keyless budget (60 a minute)
    const from = { 'x-forwarded-for': '203.0.113.77' };
    let limited = 0;
    for (let i = 0; i < 62; i++) {
      const response = await fetch(`${service.apiUrl}/api/v1/calc/liquidation?entry=65000&leverage=10&side=long`, { headers: from });
      await response.arrayBuffer();
      if (response.status === 429) limited++;
    }
    assert.ok(limited > 0, 'the budget ran out');
    const after = await scrape(metricsUrl);
    assert.equal(count(after, DURATION, route) - count(before, DURATION, route), 3);
    assert.equal(metricValue(after, 'perpdesk_rate_limit_rejections_total', { scope: 'ip' }), rejectedBefore + limited);
    const calc = { method: 'GET', route: '/api/v1/calc/liquidation' };
    assert.equal(count(after, DURATION, { ...calc, status_class: '4xx' }), limited);
    assert.equal(count(after, DURATION, { ...calc, status_class: '2xx' }), 62 - limited);
    // process defaults, and the Redis round trip measured at the scrape
    assert.ok((metricValue(after, 'process_cpu_user_seconds_total') ?? 0) > 0);
    assert.ok((metricValue(after, 'perpdesk_redis_ping_seconds') ?? -1) >= 0);
  });

  it('counts keyed requests by the key plan', async () => {
    const trader = await createTrader(accountServices(redis), { plan: 'pro' });
    const before = await scrape(metricsUrl);
    for (let i = 0; i < 2; i++) assert.equal((await botCall(service.apiUrl ?? '', trader, 'GET', '/orders', undefined, 'v2')).status, 200);
    const after = await scrape(metricsUrl);
    const pro = { plan: 'pro' };
    assert.equal(count(after, 'perpdesk_keyed_requests_total', pro) - count(before, 'perpdesk_keyed_requests_total', pro), 2);
    const route = { method: 'GET', route: '/api/bot/v2/orders', status_class: '2xx' };
    assert.equal(count(after, DURATION, route) - count(before, DURATION, route), 2);
  });

  it('counts the open WebSocket sockets of the pod', async () => {
    const trader = await createTrader(accountServices(redis), { plan: 'pro' });
    const sockets = async (): Promise<number> => metricValue(await scrape(metricsUrl), 'perpdesk_ws_open_sockets') ?? 0;
    const before = await sockets();
    const stream = connectStream(service.apiUrl ?? '', { api_key: trader.apiKey });
    await stream.next(() => true);
    assert.equal(await sockets(), before + 1);
    stream.ws.close();
    await stream.closed;
    await waitFor(async () => (await sockets()) === before, 5_000, 'the socket counted as closed');
  });

  it('labels no request by a symbol, an id or a token in its URL', async () => {
    const secrets = ['BTCUSDT', 'pos_4f1c2a9e', '9d3b7c1e-token', '12345678'];
    const paths = [
      '/api/v1/market/price?symbol=BTCUSDT',
      '/api/v1/market/BTCUSDT',
      '/api/bot/v1/positions/pos_4f1c2a9e',
      '/api/whsink/9d3b7c1e-token',
      '/api/bot/v2/orders/12345678?symbol=BTCUSDT',
    ];
    for (const path of paths)
      await (await fetch(`${service.apiUrl}${path}`, { headers: { 'x-forwarded-for': '198.51.100.9' } })).arrayBuffer();
    const families = await scrape(metricsUrl);
    for (const label of labelValues(families)) {
      for (const secret of secrets) assert.ok(!label.includes(secret), `a label holds ${label}`);
    }
    const routes = new Set(metricFamily(families, DURATION).metrics.map((m) => m.labels?.route));
    assert.ok(routes.has('unmatched'));
    assert.ok(routes.has('/api/whsink/:token'));
  });

  it('answers 401 without the right token, and is not listed by ping', async () => {
    assert.equal((await fetch(metricsUrl)).status, 401);
    assert.equal((await fetch(metricsUrl, { headers: { authorization: 'Bearer wrong' } })).status, 401);
    const basic = `Basic ${Buffer.from(`ops:${TOKEN}`).toString('base64')}`;
    assert.equal((await fetch(metricsUrl, { headers: { authorization: basic } })).status, 200);
    const ping = await (await fetch(`${service.apiUrl}/api/ping`)).text();
    assert.ok(!ping.includes('/metrics'));
  });

  it("takes the scrape token only: the dashboard's token does not scrape, and the scrape token does not open the dashboard", async () => {
    assert.equal((await fetch(metricsUrl, { headers: { authorization: `Bearer ${DASHBOARD_TOKEN}` } })).status, 401);
    assert.equal((await fetch(`${service.apiUrl}/ops/queues`, { headers: bearer })).status, 401);
    assert.equal((await fetch(`${service.apiUrl}/ops/queues`, { headers: { authorization: `Bearer ${DASHBOARD_TOKEN}` } })).status, 200);
  });

  describe('without METRICS_TOKEN', () => {
    let api: TestApi;
    before(async () => {
      api = await startTestApi(redis);
    });
    after(async () => {
      await api?.close();
    });

    it('answers 404 on an API pod', async () => {
      assert.equal((await fetch(`${api.url}/metrics`, { headers: bearer })).status, 404);
    });
  });

  describe('with a log at the default level', () => {
    const log = captureLog();
    let api: TestApi;
    before(async () => {
      api = await startTestApi(redis, { METRICS_TOKEN: TOKEN, LOG_LEVEL: 'info' }, { logger: log.logger });
    });
    after(async () => {
      await api?.close();
    });

    it('does not log the orchestrator probes at info, and logs the request after them', async () => {
      for (const path of ['/healthz', '/readyz', '/healthz?probe=1']) assert.equal((await fetch(`${api.url}${path}`)).status, 200);
      assert.equal((await fetch(`${api.url}/api/v1/ping`)).status, 200);
      await log.next((line) => line.msg === 'request completed' && line.url === '/api/v1/ping');
      const probes = log.lines().filter((line) => line.msg === 'request completed' && /^\/(healthz|readyz)/.test(String(line.url)));
      assert.deepEqual(probes, []);
    });

    it('logs scrapes without the token, however it was sent', async () => {
      await scrape(`${api.url}/metrics`);
      await scrape(`${api.url}/metrics`, { authorization: `Basic ${Buffer.from(`ops:${TOKEN}`).toString('base64')}` });
      // a token in the query is not accepted, and not logged either
      assert.equal((await fetch(`${api.url}/metrics?token=${TOKEN}`)).status, 401);
      await log.next((line) => line.statusCode === 401 && String(line.url).startsWith('/metrics'));
      assert.ok(log.lines().filter((line) => line.msg === 'request completed').length >= 3);
      assert.ok(!log.text().includes(TOKEN));
    });
  });

  describe('webhooks and the outbox relay', () => {
    const stack = useWebhookStack({ METRICS_TOKEN: TOKEN, WEBHOOK_ALLOW_PRIVATE: 'true', RELAY_SCAN_MS: '200' });

    it('counts deliveries by outcome and their latency', async () => {
      await new TestPrices(stack.redis).set({ BTCUSDT: 60000 });
      const trader = await createTrader(stack.mod, { plan: 'pro' });
      const url = `${stack.api.url}/metrics`;
      const delivered = { outcome: 'delivered' };
      const before = await scrape(url);
      const added = await botCall(stack.api.url, trader, 'POST', '/webhooks', { act: 'add', url: `${stack.receiver.url}/m` });
      assert.equal(added.status, 200);
      const opened = await botCall(stack.api.url, trader, 'POST', '/open', { symbol: 'BTC', side: 'long', margin_usd: 100, leverage: 10 });
      assert.equal(opened.status, 200);
      const after = await waitFor(
        async () => {
          const now = await scrape(url);
          return (
            count(now, 'perpdesk_webhook_deliveries_total', delivered) > count(before, 'perpdesk_webhook_deliveries_total', delivered) &&
            now
          );
        },
        10_000,
        'a delivery counted',
      );
      assert.equal(stack.receiver.received.length, 1);
      assert.equal(
        count(after, 'perpdesk_webhook_deliveries_total', delivered) - count(before, 'perpdesk_webhook_deliveries_total', delivered),
        1,
      );
      const latencies = 'perpdesk_webhook_delivery_seconds_count';
      assert.equal(count(after, latencies, {}) - count(before, latencies, {}), 1);
    });

    it('reports the age of the oldest unrelayed outbox entry, and 0 once it is relayed', async () => {
      const url = `${stack.api.url}/metrics`;
      const lagAtLeast = (seconds: number) => async () =>
        ((await scrape(url).then((now) => metricValue(now, 'perpdesk_outbox_relay_lag_seconds'))) ?? -1) >= seconds;
      // an entry appended two minutes ago that no relay can drain: its outbox's lease is held by a relay that died
      const lease = keys.outboxLease('lagging');
      await stack.redis.set(lease, 'a-relay-that-died', 'PX', 60_000);
      await stack.redis.xadd(keys.accountOutbox('lagging'), `${Date.now() - 120_000}-0`, ...openedOutboxFields('l1'));
      await indexOutbox(stack.redis, 'lagging');
      await waitFor(lagAtLeast(120), 5_000, 'the lag of the stuck entry');
      await stack.redis.del(lease);
      await waitFor(async () => (await stack.redis.xlen(keys.accountOutbox('lagging'))) === 0, 5_000, 'the entry relayed');
      await waitFor(
        async () => (await scrape(url).then((now) => metricValue(now, 'perpdesk_outbox_relay_lag_seconds'))) === 0,
        5_000,
        'the lag back to 0',
      );
    });
  });

  describe('the feed', () => {
    const stack = useSimStack({ env: { ...TRADING_SIM_ENV, METRICS_TOKEN: TOKEN }, feed: true });

    it('reports the age of each connector last message and the fresh venues of the aggregates', async () => {
      const { feedVenues } = stack.ctx.config;
      const families = await waitFor(
        async () => {
          const now = await scrape(`${stack.api.url}/metrics`);
          const ages = feedVenues.map((venue) => metricValue(now, 'perpdesk_feed_message_age_seconds', { venue }));
          return (
            (metricValue(now, 'perpdesk_feed_fresh_venues') ?? 0) >= feedVenues.length &&
            ages.every((age) => age !== undefined && age < 3) &&
            now
          );
        },
        15_000,
        'every connector heard and fresh',
      );
      assert.deepEqual(
        metricFamily(families, 'perpdesk_feed_message_age_seconds')
          .metrics.map((m) => m.labels?.venue)
          .sort(),
        [...feedVenues].sort(),
      );
    });

    it('reports which leases it holds, and the age of each liquidation connector last event, which an event resets', async () => {
      const { feedVenues, liqVenues } = stack.ctx.config;
      const leases = [...feedVenues, ...liqVenues.map((exchange) => `liq-${exchange}`)];
      const ages = async (): Promise<Map<string, number>> => {
        const now = await scrape(`${stack.api.url}/metrics`);
        const held = leases.map((lease) => metricValue(now, 'perpdesk_feed_lease_held', { lease }));
        if (!held.every((value) => value === 1)) return new Map();
        return new Map(
          liqVenues.flatMap((exchange) => {
            const age = metricValue(now, 'perpdesk_liquidation_event_age_seconds', { exchange });
            return age === undefined ? [] : [[exchange, age] as const];
          }),
        );
      };
      const first = await waitFor(
        async () => {
          const read = await ages();
          return read.size === liqVenues.length && read;
        },
        15_000,
        'every lease held, every liquidation connector aged',
      );
      // an age only grows until an event: the one that shrank heard the liquidation sent
      const exchange = liqVenues[0]!;
      await simControl(stack.sim, 'liquidation', { exchange, symbol: 'BTCUSDT', side: 'long', price: 50_000, qty: 1 });
      await waitFor(
        async () => ((await ages()).get(exchange) ?? Infinity) < (first.get(exchange) ?? 0),
        15_000,
        'the liquidation event resetting its connector age',
      );
    });
  });

  describe('the candle sweep', () => {
    const ref: BookRef = { accountId: 'acctmetrics', book: 'main' };
    let worker: RunningRole;
    before(async () => {
      // no sweep jobs left by the feed before
      await flushRedis(redis);
      const config = configWith({ REDIS_URL: testRedisUrl(), METRICS_TOKEN: TOKEN });
      const ctx = { config, redisUrl: testRedisUrl(), redis, logger: createLogger(config) };
      worker = await startWorkerRole(ctx, { processors: [candleSweepProcessor], schedules: [], relay: false });
    });
    after(async () => {
      await worker?.stop();
    });

    it('times each swept minute and counts its settlements', async () => {
      const read = async (): Promise<PrometheusFamily[]> => parseMetrics((await scrapeRegistry()).body);
      const sweeps = 'perpdesk_minute_sweep_duration_seconds_count';
      const settled = { trigger: 'candle' };
      const before = await read();
      const positions = Array.from({ length: 3 }, () => testPosition(ref, { symbol: 'SOLUSDT', side: 'long', entry: 100, sl: 97 }));
      await seedPositions(redis, ref, positions);
      const producer = createSweepProducer(testRedisUrl());
      try {
        await producer.enqueue(candle('SOLUSDT', Math.ceil(Date.now() / MINUTE) * MINUTE, 96, 100));
      } finally {
        await producer.close();
      }
      const after = await waitFor(
        async () => {
          const now = await read();
          return count(now, sweeps, {}) > count(before, sweeps, {}) && now;
        },
        10_000,
        'the minute swept',
      );
      assert.equal(count(after, sweeps, {}) - count(before, sweeps, {}), 1);
      assert.equal(
        count(after, 'perpdesk_sweep_settlements_total', settled) - count(before, 'perpdesk_sweep_settlements_total', settled),
        3,
      );
      const jobs = { queue: QUEUES.sweep, outcome: 'completed' };
      const durations = 'perpdesk_job_duration_seconds_count';
      await waitFor(async () => count(await read(), durations, jobs) === count(before, durations, jobs) + 1, 5_000, 'the job timed');
    });
  });

  describe('the live sweep', () => {
    let worker: RunningRole;
    after(async () => {
      await worker?.stop();
    });

    it('reports how late its last run started', async () => {
      await flushRedis(redis);
      const config = configWith({ REDIS_URL: testRedisUrl(), METRICS_TOKEN: TOKEN });
      const live = SCHEDULES.filter((schedule) => schedule.queue === QUEUES.liveSweep);
      const ctx = { config, redisUrl: testRedisUrl(), redis, logger: createLogger(config) };
      const runs = { queue: QUEUES.liveSweep, outcome: 'completed' };
      const durations = 'perpdesk_job_duration_seconds_count';
      const read = async (): Promise<PrometheusFamily[]> => parseMetrics((await scrapeRegistry()).body);
      const before = count(await read(), durations, runs);
      worker = await startWorkerRole(ctx, { processors: [liveSweepProcessor], schedules: live, relay: false });
      const after = await waitFor(
        async () => {
          const now = await read();
          return count(now, durations, runs) > before && now;
        },
        10_000,
        'a live sweep',
      );
      const lag = metricValue(after, 'perpdesk_live_sweep_lag_seconds');
      assert.ok(lag !== undefined && lag >= 0 && lag < 2, `lag ${lag}`);
    });
  });

  describe('the METRICS_PORT listener of a worker process', () => {
    let metrics: ProcessMetrics;
    let worker: RunningRole;
    before(async () => {
      const config = configWith({ REDIS_URL: testRedisUrl(), HOST: '127.0.0.1', METRICS_PORT: '0', METRICS_TOKEN: TOKEN });
      const logger = createLogger(config);
      metrics = await startProcessMetrics(createDomain({ config, redis }), logger);
      const ctx = { config, redisUrl: testRedisUrl(), redis, logger };
      worker = await startWorkerRole(ctx, {
        processors: [{ queue: QUEUES.latam, create: () => ({ process: async () => 'done' }) }],
        schedules: [],
        relay: false,
      });
    });
    after(async () => {
      await worker?.stop();
      await metrics?.stop();
    });

    it('serves the job durations of its queues, behind the token', async () => {
      assert.ok(metrics.url);
      // a wrong token is refused by name, as on the API (not Express's own page and a stack on stderr)
      const refused = await fetch(metrics.url, { headers: { authorization: 'Bearer wrong' } });
      assert.equal(refused.status, 401);
      assert.equal(((await refused.json()) as { error?: { code?: string } }).error?.code, 'ops_unauthorized');
      const labels = { queue: QUEUES.latam, outcome: 'completed' };
      const before = count(await scrape(metrics.url), 'perpdesk_job_duration_seconds_count', labels);
      const queue = new Queue(QUEUES.latam, { connection: redis, prefix: QUEUE_PREFIX });
      try {
        await queue.add('refresh', {});
        // the job's duration is counted once it ran (QueueEvents did not hear the worker role's completion on a
        // three-master cluster, though the job completed: the count itself is awaited)
        const url = metrics.url;
        await waitFor(
          async () => count(await scrape(url), 'perpdesk_job_duration_seconds_count', labels) === before + 1,
          10_000,
          'the job duration counted',
        );
        assert.equal(count(await scrape(url), 'perpdesk_job_duration_seconds_count', labels), before + 1);
      } finally {
        await queue.close();
      }
    });

    it('answers the orchestrator probes without the token', async () => {
      assert.ok(metrics.url);
      const base = metrics.url.replace(/\/metrics$/, '');
      const health = await fetch(`${base}/healthz`);
      assert.equal(health.status, 200);
      const ready = await fetch(`${base}/readyz`);
      assert.equal(ready.status, 200);
      assert.deepEqual({ ...((await ready.json()) as object), ts: 0 }, { ok: true, redis: 'up', checks: {}, ts: 0 });
    });
  });
});
