// @three-masters: the request id through the account scripts, the outbox relay and BullMQ jobs
import { expect } from 'chai';
import { configWith } from '../../shared/config.js';
import type { RedisClient } from '../../shared/core/redis-client.js';
import { sweepJobId } from '../../shared/queues/job-types.js';
import { createSweepProducer } from '../../shared/queues/sweep-producer.js';
import { closeRedis } from '../../shared/redis/connection.js';
import { keys } from '../../shared/redis/keys.js';
import { candleSweepProcessor } from '../../workers/processors/sweep/candle-sweep-processor.js';
import { webhookProcessor } from '../../workers/processors/webhooks/webhook-processor.js';
import type { RunningRole } from '../../workers/runtime.js';
import { startWorkerRole } from '../../workers/worker-role.js';
import { startTestApi, type TestApi } from '../helpers/app.js';
import { captureLog, type CapturedLog } from '../helpers/log-capture.js';
import { signIn } from '../helpers/site.js';
import { indexOutbox, openedOutboxFields, startReceiver, type TestReceiver } from '../helpers/push.js';
import { freshRedis, testRedisUrl } from '../helpers/redis.js';
import { candle, MINUTE } from '../helpers/sweep.js';
import { accountServices, botCall, createTrader, TestPrices, type Trader } from '../helpers/trading.js';

type Line = Record<string, unknown>;

describe('a request id followed from the API to the webhook receiver (issue #37, logs)', function () {
  this.timeout(60_000);
  const env = { PUBLIC_RATE_LIMIT: '1000000', WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_RETRY_BASE_MS: '50', RELAY_SCAN_MS: '200' };
  let redis: RedisClient;
  let api: TestApi;
  let worker: RunningRole;
  let receiver: TestReceiver;
  let apiLog: CapturedLog;
  let workerLog: CapturedLog;
  let trader: Trader;
  const email = `trace-${Date.now()}@example.org`;

  before(async () => {
    redis = await freshRedis();
    apiLog = captureLog();
    workerLog = captureLog();
    api = await startTestApi(redis, env, { logger: apiLog.logger });
    const config = configWith({ REDIS_URL: testRedisUrl(), ...env });
    // the worker as a worker process runs it (relay included), with its log captured
    worker = await startWorkerRole(
      { config, redisUrl: testRedisUrl(), redis, logger: workerLog.logger },
      { processors: [candleSweepProcessor, webhookProcessor], schedules: [] },
    );
    receiver = await startReceiver();
    trader = await createTrader(accountServices(redis), { email, plan: 'pro' });
    const hook = await botCall(api.url, trader, 'POST', '/webhooks', { act: 'add', url: `${receiver.url}/hook` });
    expect(hook.status, JSON.stringify(hook.body)).to.equal(200);
  });
  // the price is live for 10 s: set before each open
  beforeEach(() => new TestPrices(redis).set({ BTCUSDT: 60000 }));
  after(async () => {
    await worker?.stop();
    await api?.close();
    await receiver?.close();
    if (redis) await closeRedis(redis);
  });

  const delivered = (event: string, reqId: string | undefined): Promise<Line> =>
    workerLog.next((line) => line.msg === 'webhook delivered' && line.event === event && line.reqId === reqId, 10_000);

  it("an open's request id is on the API's request line, the outbox entry, the job and the delivery's log line; not sent", async () => {
    const opened = await botCall<{ position: { id: string } }>(api.url, trader, 'POST', '/open', {
      symbol: 'BTC',
      side: 'long',
      margin_usd: 100,
      leverage: 10,
    });
    expect(opened.status, JSON.stringify(opened.body)).to.equal(200);
    // the id the API gave the request (none was sent)
    const reqId = opened.headers.get('x-request-id') ?? '';
    expect(reqId).to.match(/^[0-9a-f-]{36}$/);
    const request = await apiLog.next((line) => line.msg === 'request completed' && line.reqId === reqId);
    expect(request).to.include({ url: '/api/bot/v1/open', statusCode: 200 });

    const line = await delivered('position.opened', reqId);
    expect(line).to.include({ accountId: trader.accountId, status: 200, attempt: 1 });
    const delivery = receiver.received.find((d) => d.headers['x-pd-delivery'] === line.jobId);
    expect(delivery, 'the delivery the log line names').to.not.equal(undefined);
    // the receiver sees the spec's headers only: the id is for our logs
    expect(JSON.stringify(delivery?.headers)).to.not.contain(reqId);
    expect(delivery?.body).to.not.contain(reqId);
  });

  it("a site trade's request id (the client's own X-Request-Id) reaches its delivery's log line as a keyed one's does", async () => {
    const visitor = await signIn(api.url, redis, email);
    const reqId = `site-trace-${Date.now()}`;
    const order = { symbol: 'BTC', side: 'short', margin_usd: 50, leverage: 5 };
    const opened = await visitor.call('POST', '/api/site/open', order, { 'x-request-id': reqId });
    expect(opened.status, JSON.stringify(opened.body)).to.equal(200);
    expect(opened.headers.get('x-request-id')).to.equal(reqId);
    await delivered('position.opened', reqId);
  });

  it("a position the candle sweep closes: its delivery's log line carries the sweep job's id, as the job's own line does", async () => {
    const opened = await botCall<{ position: { id: string } }>(api.url, trader, 'POST', '/open', {
      symbol: 'BTC',
      side: 'long',
      margin_usd: 100,
      leverage: 10,
      sl: 59000,
    });
    expect(opened.status, JSON.stringify(opened.body)).to.equal(200);
    const minute = Math.ceil((Date.now() + 1) / MINUTE) * MINUTE;
    const producer = createSweepProducer(testRedisUrl());
    try {
      await producer.enqueue(candle('BTCUSDT', minute, 58500, 60100));
    } finally {
      await producer.close();
    }
    const jobId = sweepJobId('BTCUSDT', minute);
    const swept = await workerLog.next((line) => line.msg === 'candle swept' && line.reqId === jobId, 10_000);
    expect(swept).to.have.nested.property('positions.settled', 1);
    const line = await delivered('position.closed', jobId);
    const delivery = receiver.received.find((d) => d.headers['x-pd-delivery'] === line.jobId);
    expect(JSON.parse(delivery?.body ?? '{}')).to.have.nested.property('data.id', opened.body.position.id);
  });

  it('an outbox entry written without an id (an older release) is still delivered, its log line without one', async () => {
    const outbox = keys.accountOutbox(trader.accountId);
    await redis.xadd(outbox, '*', ...openedOutboxFields('bpolder'));
    await indexOutbox(redis, trader.accountId);
    await redis.publish(keys.outboxNudgeChannel, outbox);
    // the delivery of that entry (the receiver has it before the worker logs it), then its line
    const isOlder = (jobId: unknown): boolean =>
      receiver.received.some((d) => d.headers['x-pd-delivery'] === jobId && d.body.includes('"id":"bpolder"'));
    const line = await workerLog.next((l) => l.msg === 'webhook delivered' && isOlder(l.jobId), 10_000);
    expect(line).to.not.have.property('reqId');
  });
});
