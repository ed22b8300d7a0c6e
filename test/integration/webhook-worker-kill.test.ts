// @three-masters: webhook jobs resumed after their worker is killed
import { expect } from 'chai';
import type { RedisClient } from '../../shared/core/redis-client.js';
import { WebhookStore } from '../../shared/push/webhook-store.js';
import { configWith } from '../../shared/config.js';
import { closeRedis } from '../../shared/redis/connection.js';
import { keys } from '../../shared/redis/keys.js';
import type { RunningRole } from '../../workers/runtime.js';
import { waitFor } from '../helpers/market-wait.js';
import { spawnService } from '../helpers/process.js';
import { openedOutboxFields, startReceiver, startTestRelay, startWebhookWorker, type TestReceiver } from '../helpers/push.js';
import { freshRedis, testRedisUrl } from '../helpers/redis.js';
import { accountServices, createTrader } from '../helpers/trading.js';

describe('push: a worker killed mid-delivery', function () {
  this.timeout(60_000);
  let redis: RedisClient;
  let receiver: TestReceiver;
  let relay: RunningRole;
  let worker: RunningRole | undefined;

  before(async () => {
    redis = await freshRedis();
    receiver = await startReceiver();
    relay = await startTestRelay(redis);
  });
  after(async () => {
    await worker?.stop();
    await relay.stop();
    await receiver.close();
    await closeRedis(redis);
  });

  it('loses nothing: the delivery it held runs again on another worker, with the same delivery id', async () => {
    const env = { WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_LOCK_MS: '1000' };
    // a real worker process: MARKET_SOURCE=sim at an address where nothing listens keeps its other jobs off the network
    const child = spawnService({
      ...env,
      ROLE: 'worker',
      REDIS_URL: testRedisUrl(),
      MARKET_SOURCE: 'sim',
      SIM_URL: 'http://127.0.0.1:9',
      LOG_LEVEL: 'info',
    });
    try {
      await child.waitForLine((line) => line.includes('worker role started'));
      const trader = await createTrader(accountServices(redis), { plan: 'pro' });
      const hook = {
        id: 'whkill',
        url: `${receiver.url}/hook`,
        secret: 'whs_kill',
        events: ['position.opened' as const],
        book: null,
        created: Date.now(),
      };
      expect(await new WebhookStore(redis, configWith().webhookSecretsKey).add(trader.accountId, hook, 3)).to.deep.equal({ kind: 'added' });
      receiver.answer = () => (receiver.received.length === 1 ? 'hang' : 200);
      await redis.xadd(keys.accountOutbox(trader.accountId), '*', ...openedOutboxFields('bpkill'));
      await redis.publish(keys.outboxNudgeChannel, keys.accountOutbox(trader.accountId));
      await waitFor(() => receiver.received.length === 1, 10_000, 'the first attempt, held open by the receiver');
      child.child.kill('SIGKILL');
      await child.exit;
      worker = await startWebhookWorker(redis, env, { relay: false });
      await waitFor(() => receiver.received.length === 2, 15_000, 'the delivery again, on the other worker');
      const [first, second] = receiver.received;
      expect(second.headers['x-pd-delivery']).to.equal(first.headers['x-pd-delivery']);
      expect(second.body).to.equal(first.body);
      const stats = await waitFor(
        async () => {
          const [stored] = await new WebhookStore(redis, configWith().webhookSecretsKey).list(trader.accountId);
          return stored.stats.deliveries === 1 ? stored.stats : undefined;
        },
        5_000,
        'the delivery counted',
      );
      expect(stats).to.include({ deliveries: 1, consecutive_failures: 0 });
    } finally {
      if (child.child.exitCode === null) child.child.kill('SIGKILL');
    }
  });
});
