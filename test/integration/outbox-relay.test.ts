// @three-masters: the outbox stream and its relay, the cluster client
import { expect } from 'chai';
import { Queue } from 'bullmq';
import { subscriberClient, type RedisClient } from '../../shared/core/redis-client.js';
import type { ChannelMessage } from '../../shared/push/push-event.js';
import { WebhookStore, type WebhookRecord } from '../../shared/push/webhook-store.js';
import { configWith } from '../../shared/config.js';
import { QUEUE_PREFIX, QUEUES } from '../../shared/queues/queue-names.js';
import { createWebhookProducer } from '../../shared/queues/webhook-producer.js';
import { closeRedis, createBlockingRedis, masterNodes } from '../../shared/redis/connection.js';
import { keys } from '../../shared/redis/keys.js';
import { SLOTS } from '../../shared/redis/slot-tags.js';
import { OutboxStore } from '../../shared/push/outbox-store.js';
import type { RunningRole } from '../../workers/runtime.js';
import { waitFor } from '../helpers/market-wait.js';
import { openedOutboxFields, startTestRelay } from '../helpers/push.js';
import { freshRedis, testRedisUrl } from '../helpers/redis.js';
import { accountServices, createTrader } from '../helpers/trading.js';

const hook = (id: string, events: WebhookRecord['events'] = ['position.opened']): WebhookRecord => ({
  id,
  url: 'http://127.0.0.1:9/x',
  secret: 'whs_x',
  events,
  book: null,
  created: Date.now(),
});

describe('push: the outbox relay', function () {
  this.timeout(30_000);
  let redis: RedisClient;
  let listener: RedisClient;
  let queueConnection: RedisClient;
  let queue: Queue;
  const relays: RunningRole[] = [];
  const heard = new Map<string, ChannelMessage[]>();

  /** Appends position.opened entries the way the scripts do (indexed); nudge false skips the publish (a nudge nobody heard). */
  const append = async (accountId: string, ids: string[], nudge = true): Promise<void> => {
    const pipeline = redis.pipeline();
    for (const id of ids) pipeline.xadd(keys.accountOutbox(accountId), '*', ...openedOutboxFields(id));
    pipeline.sadd(keys.outboxIndex(accountId), keys.accountOutbox(accountId));
    if (nudge) pipeline.publish(keys.outboxNudgeChannel, keys.accountOutbox(accountId));
    await pipeline.exec();
  };
  /** The outbox keys the whole index holds (every slot's set). */
  const indexed = async (): Promise<string[]> =>
    (
      await new OutboxStore(redis).indexStep(0, SLOTS, (error) => {
        throw error;
      })
    ).accounts;
  /** Two complete passes from now (the pass report's time moves twice). */
  const twoPasses = async (): Promise<void> => {
    const store = new OutboxStore(redis);
    for (let i = 0; i < 2; i++) {
      const before = (await store.lastScan())?.at ?? 0;
      await waitFor(async () => ((await store.lastScan())?.at ?? 0) > before, 5_000, 'a complete pass');
    }
  };
  const listen = async (accountId: string): Promise<ChannelMessage[]> => {
    const messages: ChannelMessage[] = [];
    heard.set(keys.accountEvents(accountId), messages);
    await listener.subscribe(keys.accountEvents(accountId));
    return messages;
  };
  const positionIds = (messages: ChannelMessage[]): string[] =>
    messages.flatMap((m) => m.messages.map((s) => (s.data as { position: { id: string } }).position.id));

  before(async () => {
    redis = await freshRedis();
    // a subscriber as the stream's pods have (a Cluster client's own may move to another node, losing messages meanwhile)
    listener = subscriberClient(redis);
    listener.on('message', (channel: string, raw: string) => heard.get(channel)?.push(JSON.parse(raw) as ChannelMessage));
    queueConnection = createBlockingRedis(testRedisUrl());
    queue = new Queue(QUEUES.webhooks, { connection: queueConnection, prefix: QUEUE_PREFIX });
    relays.push(await startTestRelay(redis, { RELAY_SCAN_MS: '200' }), await startTestRelay(redis, { RELAY_SCAN_MS: '200' }));
  });
  after(async () => {
    for (const relay of relays) await relay.stop();
    await queue.close();
    await closeRedis(listener, queueConnection, redis);
  });

  it("moves each account's entries to its channel in order, once each, and empties the outbox (two relays sharing the work)", async () => {
    const accounts = ['r1', 'r2', 'r3', 'r4'];
    const heardBy = new Map<string, ChannelMessage[]>();
    for (const account of accounts) heardBy.set(account, await listen(account));
    const expected = Array.from({ length: 60 }, (_, i) => `p${i}`);
    for (let i = 0; i < expected.length; i += 10) await Promise.all(accounts.map((account) => append(account, expected.slice(i, i + 10))));
    for (const account of accounts) {
      const messages = heardBy.get(account) ?? [];
      await waitFor(() => messages.length >= expected.length, 5_000, `the entries of ${account}`);
      expect(positionIds(messages)).to.deep.equal(expected);
      const ids = messages.map((m) => m.id);
      expect(
        [...ids].sort((a, b) => Number(a.split('-')[0]) - Number(b.split('-')[0]) || Number(a.split('-')[1]) - Number(b.split('-')[1])),
      ).to.deep.equal(ids);
      // the relay publishes, then acks: the outbox empties just after its last entry is heard
      await waitFor(async () => (await redis.xlen(keys.accountOutbox(account))) === 0, 5_000, `the outbox of ${account} emptied`);
    }
  });

  it('finds an outbox whose nudge nobody heard (the periodic pass over the index), and leaves the index empty', async () => {
    const messages = await listen('quiet');
    await append('quiet', ['q1'], false);
    await waitFor(() => messages.length === 1, 3_000, 'the pass to relay it');
    expect(positionIds(messages)).to.deep.equal(['q1']);
    await waitFor(async () => (await indexed()).length === 0, 3_000, 'the index emptied with the outbox');
  });

  it('looks for forgotten outboxes without a SCAN of the keyspace, on every master', async () => {
    const masters = await masterNodes(redis);
    await Promise.all(masters.map((node) => node.config('RESETSTAT')));
    await twoPasses();
    const scans = await Promise.all(
      masters.map(async (node) => /^cmdstat_scan:calls=(\d+)/m.exec(await node.info('commandstats'))?.[1] ?? '0'),
    );
    expect(scans.map(Number)).to.deep.equal(masters.map(() => 0));
  });

  it('relays, without nudges, entries appended to many accounts while passes run, and one appended between a read and its ack', async () => {
    // accounts in slots spread over every master, appended in waves while the relays' passes go on
    const accounts = Array.from({ length: 60 }, (_, i) => `wave${i}`);
    const heardBy = new Map<string, ChannelMessage[]>();
    for (const account of accounts) heardBy.set(account, await listen(account));
    for (let wave = 0; wave < 3; wave++) {
      await Promise.all(accounts.map((account) => append(account, [`${account}-${wave}`], false)));
      await new Promise((resolve) => setImmediate(resolve));
    }
    for (const account of accounts) {
      const messages = heardBy.get(account) ?? [];
      await waitFor(() => messages.length >= 3, 5_000, `the entries of ${account}`);
      expect(positionIds(messages)).to.deep.equal([0, 1, 2].map((wave) => `${account}-${wave}`));
    }
    await waitFor(async () => (await indexed()).length === 0, 3_000, 'the index emptied');

    // the race the ack settles in one step: an entry appended after the relay read the head stays indexed
    const store = new OutboxStore(redis);
    await redis.set(keys.outboxLease('racer'), 'a-relay-that-died', 'PX', 60_000); // the test drains this outbox alone
    await append('racer', ['r-read'], false);
    const read = await store.head('racer', 200);
    await append('racer', ['r-late'], false);
    expect(
      await store.ack(
        'racer',
        'a-relay-that-died',
        read.map((e) => e.id),
        60_000,
      ),
    ).to.equal(1);
    expect(await redis.sismember(keys.outboxIndex('racer'), keys.accountOutbox('racer'))).to.equal(1);
    const late = await store.head('racer', 200);
    expect(
      await store.ack(
        'racer',
        'a-relay-that-died',
        late.map((e) => e.id),
        60_000,
      ),
    ).to.equal(0);
    expect(await redis.sismember(keys.outboxIndex('racer'), keys.accountOutbox('racer'))).to.equal(0);
    await redis.del(keys.outboxLease('racer'));
  });

  it('loses nothing when a relay dies mid-pass and mid-drain: its leases lapse and the next pass relays the rest', async () => {
    const messages = await listen('killed');
    // what a relay killed mid-pass leaves: the pass lease and the lease of an outbox it was draining (entries read, not removed)
    await redis.set(keys.outboxScanLease, 'a-relay-that-died', 'PX', 600);
    await redis.set(keys.outboxLease('killed'), 'a-relay-that-died', 'PX', 900);
    const started = Date.now();
    await append('killed', ['k1', 'k2'], false);
    await waitFor(() => messages.length === 2, 5_000, 'the entries after the leases lapsed');
    expect(Date.now() - started).to.be.at.least(800);
    expect(positionIds(messages)).to.deep.equal(['k1', 'k2']);
    await waitFor(async () => (await indexed()).length === 0, 3_000, 'the index emptied');
  });

  it('relays again what a relay that died mid-drain left, once its lease lapses', async () => {
    const messages = await listen('orphan');
    await redis.set(keys.outboxLease('orphan'), 'a-relay-that-died', 'PX', 800);
    const started = Date.now();
    await append('orphan', ['o1', 'o2']);
    // nothing relayed while the dead relay's lease holds: the entries arrive only once it lapsed
    await waitFor(() => messages.length === 2, 5_000, 'the entries after the lease lapsed');
    expect(Date.now() - started).to.be.at.least(700);
    expect(positionIds(messages)).to.deep.equal(['o1', 'o2']);
  });

  it('drops a malformed entry (logged) instead of blocking the outbox behind it', async () => {
    const messages = await listen('broken');
    await redis.xadd(keys.accountOutbox('broken'), '*', 'event', 'position.opened', 'book', 'main', 'ts', '1', 'position', '{not json');
    await append('broken', ['b1']);
    await waitFor(() => messages.length === 1, 3_000, 'the entry after the malformed one');
    expect(positionIds(messages)).to.deep.equal(['b1']);
    expect(await redis.xlen(keys.accountOutbox('broken'))).to.equal(0);
  });

  it('queues deliveries for the active hooks of paid accounts only', async () => {
    const mod = accountServices(redis);
    const free = await createTrader(mod, { plan: 'free' });
    const pro = await createTrader(mod, { plan: 'pro' });
    const store = new WebhookStore(redis, configWith().webhookSecretsKey);
    await store.add(free.accountId, hook('whfree'), 3);
    await store.add(pro.accountId, hook('whactive'), 3);
    await store.add(pro.accountId, hook('whpaused'), 3);
    await store.add(pro.accountId, hook('whclosed', ['position.closed']), 3);
    await redis.sadd(keys.accountWebhooksPaused(pro.accountId), 'whpaused');
    await append(free.accountId, ['f1']);
    await append(pro.accountId, ['a1']);
    await waitFor(
      async () => (await redis.xlen(keys.accountOutbox(free.accountId))) + (await redis.xlen(keys.accountOutbox(pro.accountId))) === 0,
      3_000,
      'both outboxes relayed',
    );
    const jobs = await queue.getJobs(['waiting', 'delayed', 'active', 'completed', 'failed']);
    expect(jobs.map((job) => job.data as { hookId: string }).map((data) => data.hookId)).to.deep.equal(['whactive']);
    expect(jobs[0].opts).to.deep.include({ attempts: 6, backoff: { type: 'exponential', delay: 30_000 } });
  });

  it('queues one job per hook and item however often an item is handed over (deterministic job ids)', async () => {
    const producer = createWebhookProducer(testRedisUrl(), 30_000);
    try {
      const delivery = { itemId: '1700000000000-0', job: { accountId: 'dup', hookId: 'whdup', event: 'position.opened', body: '{}' } };
      await producer.enqueue([delivery]);
      await producer.enqueue([delivery, delivery]);
      const jobs = (await queue.getJobs(['waiting', 'delayed', 'active', 'completed', 'failed'])).filter(
        (job) => (job.data as { hookId: string }).hookId === 'whdup',
      );
      expect(jobs.map((job) => job.id)).to.deep.equal(['whdup.1700000000000-0']);
    } finally {
      await producer.close();
    }
  });
});
