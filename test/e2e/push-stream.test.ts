// @three-masters: Redis pub/sub across nodes, subscribers cut on every master
import { createDomain } from '../../shared/domain.js';
import { expect } from 'chai';
import fc from 'fast-check';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RedisClient } from '../../shared/core/redis-client.js';
import { createApiPod } from '../../shared/api-pod.js';
import { runCli } from '../../ops/cli/cli-run.js';
import { attachStream } from '../../api/ws/stream-server.js';
import { systemClock } from '../../shared/core/clock.js';
import { configWith } from '../../shared/config.js';
import { createLogger } from '../../shared/core/logger.js';
import type { AccountServices } from '../../shared/paper/accounts/account-services.js';
import { StoredApiKeyResolver, type ApiKeyResolver } from '../../shared/paper/api-key-resolver.js';
import type { BookRef } from '../../shared/paper/positions/position-types.js';
import { ConnectedBookSweep } from '../../shared/paper/sweep/sweep.js';
import { SocketCap } from '../../shared/push/socket-notices.js';
import { SocketSlots } from '../../shared/push/socket-slots.js';
import { keys } from '../../shared/redis/keys.js';
import { closeRedis } from '../../shared/redis/connection.js';
import type { RunningRole } from '../../workers/runtime.js';
import { getJson, startTestApi, type TestApi } from '../helpers/app.js';
import { HeldGate } from '../helpers/held-gate.js';
import { waitFor } from '../helpers/market-wait.js';
import { closedWithin, connectStream, refusedUpgrade, startTestRelay, type StreamMessage, type TestStream } from '../helpers/push.js';
import { freshRedis, killSubscribers, testRedisUrl, watchCommands } from '../helpers/redis.js';
import { accountServices, botCall, createTrader, TestPrices, type Trader } from '../helpers/trading.js';

type Pos = Record<string, unknown> & { id: string; symbol: string };

const positionEvents = (stream: TestStream, from = 0): { event: string; id: string }[] =>
  stream.messages
    .slice(from)
    .filter((m) => m.type === 'position')
    .map((m) => ({ event: String(m.data?.event), id: (m.data?.position as Pos).id }));

const isType = (type: string) => (m: StreamMessage) => m.type === type;

describe('push: the WebSocket stream', function () {
  this.timeout(30_000);
  const env = { PUBLIC_RATE_LIMIT: '1000000', STREAM_TICK_MS: '200' };
  let redis: RedisClient;
  let podA: TestApi;
  let podB: TestApi;
  let relay: RunningRole;
  let mod: AccountServices;
  let prices: TestPrices;
  let trader: Trader;
  const streams: TestStream[] = [];
  const connect = (base: string, query: Record<string, string>): TestStream => {
    const stream = connectStream(base, query);
    streams.push(stream);
    return stream;
  };

  before(async () => {
    redis = await freshRedis();
    podA = await startTestApi(redis, env);
    podB = await startTestApi(redis, env);
    relay = await startTestRelay(redis, { RELAY_SCAN_MS: '200' });
    mod = accountServices(redis);
    prices = new TestPrices(redis);
  });
  after(async () => {
    for (const stream of streams) stream.ws.terminate();
    await relay.stop();
    await podA.close();
    await podB.close();
    await closeRedis(redis);
  });
  beforeEach(async () => {
    await prices.set({ BTCUSDT: 60000, ETHUSDT: 3000 });
    trader = await createTrader(mod, { plan: 'free' });
  });

  const call = (pod: TestApi, method: 'GET' | 'POST', path: string, body?: unknown, who: Trader = trader) =>
    botCall<{ position: Pos; closed: Pos }>(pod.url, who, method, path, body);
  const open = async (pod: TestApi, symbol: string, who: Trader = trader): Promise<Pos> => {
    const r = await call(pod, 'POST', '/open', { symbol, side: 'long', margin_usd: 100, leverage: 10 }, who);
    expect(r.status, JSON.stringify(r.body)).to.equal(200);
    return r.body.position;
  };

  /** A bare HTTP server with only the stream attached, on its own key resolver and sweep of a connected book. */
  const streamPod = async (
    apiKeys: ApiKeyResolver,
    sweepBook: (ref: BookRef) => Promise<unknown> = async () => undefined,
  ): Promise<{ url: string; close(): Promise<void> }> => {
    const config = configWith({ REDIS_URL: testRedisUrl(), STREAM_TICK_MS: '200' });
    const domain = createDomain({ config, redis });
    const { trading } = domain;
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const logger = createLogger(config);
    const pod = createApiPod(domain, logger);
    const connectedBookSweep = new ConnectedBookSweep({ redis, clock: systemClock, logger, tickMs: config.push.streamTickMs, sweepBook });
    const ticks = pod.openTicks((error) => logger.error({ err: error }, 'unreadable price tick'));
    const stream = attachStream(server, {
      backplane: pod.openStreamBackplane((error) => logger.error({ err: error }, 'stream: unreadable channel message')),
      config,
      logger,
      clock: systemClock,
      apiKeys,
      chargeRefusedKey: async () => null,
      chargeKeyedUpgrade: async () => null,
      trading,
      ticks,
      connectedBookSweep,
    });
    return {
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      close: async () => {
        await stream.close();
        await new Promise((resolve) => server.close(resolve));
      },
    };
  };
  const storedKeys = (): StoredApiKeyResolver => new StoredApiKeyResolver({ accounts: mod.accounts, keys: mod.keys, clock: systemClock });

  it('refuses a missing, bad or revoked key before the upgrade with HTTP 401 naming api_key, no socket; a plain GET: 401 without a key, 426 with one', async () => {
    const created = await mod.service.createKey({ email: `revoked-${Date.now()}@example.org` });
    await mod.service.revokeKey(created.account.email, created.key.id);
    const cases: [Record<string, string>, string][] = [
      [{}, 'missing_api_key'],
      [{ api_key: 'pd_notakey' }, 'bad_api_key'],
      [{ token: created.apiKey }, 'revoked_key'],
    ];
    for (const [query, code] of cases) {
      const refused = await refusedUpgrade(podA.url, query);
      expect(refused.status, code).to.equal(401);
      expect(refused.body).to.deep.include({ ok: false });
      const error = (refused.body as { error: { code: string; message: string } }).error;
      expect(error.code).to.equal(code);
      expect(error.message).to.contain('api_key');
    }
    const keyless = await getJson<{ ok: boolean; error: { code: string; message: string } }>(`${podA.url}/api/bot/v2/stream`);
    expect(keyless.status).to.equal(401);
    expect(keyless.body.error.code).to.equal('missing_api_key');
    expect(keyless.body.error.message).to.contain('api_key');
    const plain = await getJson<{ ok: boolean; error: { code: string } }>(`${podA.url}/api/bot/v2/stream?api_key=${trader.apiKey}`);
    expect(plain.status).to.equal(426);
    expect(plain.body.error.code).to.equal('upgrade_required');
  });

  it('charges refused keys of upgrades to the address, on the budget HTTP requests with refused keys share: 429 past it', async () => {
    const pod = await startTestApi(redis, { ...env, BAD_KEY_RATE_LIMIT: '3' });
    try {
      const codeOf = (refused: { body: unknown }): string => (refused.body as { error: { code: string } }).error.code;
      // a missing key is not a guess: never charged
      for (let i = 0; i < 4; i++) expect(codeOf(await refusedUpgrade(pod.url, {}))).to.equal('missing_api_key');
      expect((await getJson(`${pod.url}/api/bot/v1/positions`, { headers: { 'x-api-key': 'pd_guess0' } })).status).to.equal(401);
      for (const guess of ['pd_guess1', 'pd_guess2'])
        expect(codeOf(await refusedUpgrade(pod.url, { api_key: guess }))).to.equal('bad_api_key');
      const over = await refusedUpgrade(pod.url, { api_key: 'pd_guess3' });
      expect(over.status).to.equal(429);
      expect((over.body as { error: { code: string; retry_after: number } }).error)
        .to.include({ code: 'rate_limited' })
        .and.have.property('retry_after')
        .above(0);
      expect((await getJson(`${pod.url}/api/bot/v1/positions`, { headers: { 'x-api-key': 'pd_guess4' } })).status).to.equal(429);
      // a valid key from the same address still streams
      const stream = connect(pod.url, { api_key: trader.apiKey });
      expect((await stream.next((m) => m.type === 'welcome')).type).to.equal('welcome');
    } finally {
      await pod.close();
    }
  });

  it('sends welcome and a snapshot, then changes made through another pod, in order, each within a second', async () => {
    const btc = await open(podA, 'BTC');
    // the open's own event may be relayed before or after the snapshot is read: the snapshot holds it, so it is not sent again
    const stream = connect(podB.url, { api_key: trader.apiKey });
    const welcome = await stream.next(isType('welcome'));
    expect(welcome.data).to.deep.include({ channels: ['positions', 'prices'], tick_ms: 200, account: 'main' });
    const snapshot = await stream.next(isType('snapshot'));
    expect(stream.messages.indexOf(snapshot)).to.equal(1);
    expect((snapshot.data?.positions as Pos[]).map((p) => p.id)).to.deep.equal([btc.id]);

    const from = stream.messages.length;
    const eth = await open(podA, 'ETH');
    let sent = Date.now();
    await stream.next((m) => m.type === 'position' && m.data?.event === 'opened', 1_000, from);
    expect(Date.now() - sent).to.be.below(1_000);
    expect((await call(podA, 'POST', '/sltp', { id: eth.id, sl: 2500 })).status).to.equal(200);
    const closed = await call(podA, 'POST', '/close', { id: btc.id });
    sent = Date.now();
    expect(closed.status).to.equal(200);
    const event = await stream.next((m) => m.type === 'position' && m.data?.event === 'closed', 1_000, from);
    expect(Date.now() - sent).to.be.below(1_000);
    expect(event.data?.position).to.include({ id: btc.id, status: 'closed' });
    expect(positionEvents(stream, from)).to.deep.equal([
      { event: 'opened', id: eth.id },
      { event: 'updated', id: eth.id },
      { event: 'closed', id: btc.id },
    ]);
    const position = event.data?.position as Record<string, unknown>;
    expect(position).to.not.have.any.keys('v', 'funding_carry_usd', 'funding_from_ts');
  });

  it('shows a partial close as the closed part and the updated remainder, and nothing of another book', async () => {
    const bookTrader = await createTrader(mod, { plan: 'pro', book: 'alpha' });
    const mainTrader = {
      ...bookTrader,
      apiKey: (await mod.service.createKey({ email: (await mod.accounts.get(bookTrader.accountId))!.email })).apiKey,
      book: 'main',
    };
    const onBook = connect(podA.url, { api_key: bookTrader.apiKey });
    const onMain = connect(podB.url, { api_key: mainTrader.apiKey });
    await onBook.next(isType('snapshot'));
    await onMain.next(isType('snapshot'));
    const p = await open(podB, 'BTC', bookTrader);
    expect((await call(podA, 'POST', '/close', { id: p.id, pct: 40 }, bookTrader)).status).to.equal(200);
    await waitFor(() => positionEvents(onBook).length === 3, 2_000, 'three position events');
    expect(positionEvents(onBook).map((e) => e.event)).to.deep.equal(['opened', 'closed', 'updated']);
    expect(onBook.messages.filter(isType('position')).every((m) => (m.data?.position as Pos).account === 'alpha')).to.equal(true);
    await open(podA, 'ETH', mainTrader);
    await onMain.next(isType('position'), 2_000);
    expect(positionEvents(onMain)).to.have.length(1);
    expect(positionEvents(onBook)).to.have.length(3);
  });

  it('accepts key and token as aliases, answers ping with pong, sends prices of open symbols each tick, and subscribe chooses channels', async () => {
    await open(podA, 'ETH');
    const byKey = connect(podA.url, { key: trader.apiKey });
    const byToken = connect(podB.url, { token: trader.apiKey });
    await byKey.next(isType('snapshot'));
    await byToken.next(isType('snapshot'));
    byKey.send({ op: 'ping' });
    expect(await byKey.next(isType('pong'))).to.have.property('ts');
    const tick = await byToken.next(isType('prices'), 2_000);
    expect(tick.data).to.deep.equal({ ETH: 3000 });
    byToken.send({ op: 'subscribe', channels: ['positions'] });
    const subscribed = await byToken.next(isType('subscribed'));
    expect(subscribed.data).to.deep.equal({ channels: ['positions'] });
    const after = byToken.messages.length;
    const keyFrom = byKey.messages.length;
    // three ticks reach the socket still on prices; meanwhile the one that left the channel gets none
    await waitFor(() => byKey.messages.slice(keyFrom).filter(isType('prices')).length >= 3, 5_000, 'three price ticks');
    expect(byToken.messages.slice(after).filter(isType('prices'))).to.have.length(0);
    byToken.send({ op: 'subscribe', channels: ['news'] });
    expect((await byToken.next(isType('error'))).data).to.include({ code: 'invalid_param' });
    byToken.ws.send('not json');
    await waitFor(() => byToken.messages.some((m) => m.type === 'error' && m.data?.code === 'invalid_json'), 2_000, 'invalid_json');
    expect(byToken.ws.readyState).to.equal(byToken.ws.OPEN);
  });

  it('brings a price published as a tick to every socket of the book without reading Redis for them', async () => {
    // a symbol of this test alone (no other pod or test reads its quote), priced before the pod starts: it has heard no tick of it
    await prices.set({ SOLUSDT: 150 });
    const pod = await streamPod(storedKeys());
    try {
      await open(podA, 'SOL');
      const sockets = [0, 1, 2].map(() => connect(pod.url, { api_key: trader.apiKey }));
      // the pod's first prices of the book: its open symbols and the price not heard yet, read once
      for (const socket of sockets) await socket.next((m) => m.type === 'prices' && m.data?.SOL === 150);
      const reads: string[][] = [];
      const watched = [keys.marketQuote('SOLUSDT'), keys.bookOpen(trader.accountId, 'main')];
      const stop = await watchCommands(redis, (args) => {
        if (args.some((arg) => watched.includes(arg))) reads.push(args);
      });
      try {
        const from = sockets.map((socket) => socket.messages.length);
        await prices.set({ SOLUSDT: 151 });
        for (const [i, socket] of sockets.entries()) await socket.next((m) => m.type === 'prices' && m.data?.SOL === 151, 2_000, from[i]);
      } finally {
        stop();
      }
      // the feed's own write of the quote is all: the pod neither read the quote nor the book
      expect(reads.map((args) => args[0].toLowerCase())).to.deep.equal(['set']);
    } finally {
      await pod.close();
    }
  });

  it('caps streams at 3 per account across keys and pods; closing one frees its slot', async () => {
    const email = (await mod.accounts.get(trader.accountId))!.email;
    const second = (await mod.service.createKey({ email })).apiKey;
    const held = [
      connect(podA.url, { api_key: trader.apiKey }),
      connect(podA.url, { api_key: second }),
      connect(podB.url, { api_key: trader.apiKey }),
    ];
    for (const stream of held) await stream.next(isType('snapshot'));
    const fourth = connect(podB.url, { api_key: second });
    expect(await fourth.closed).to.deep.equal({ code: 4429, reason: 'too_many_sockets' });
    held[0].ws.close();
    await held[0].closed;
    const fifth = await waitFor(
      async () => {
        const stream = connect(podB.url, { api_key: second });
        const first = await stream.next(() => true);
        return first.type === 'welcome' ? stream : undefined;
      },
      3_000,
      'a freed slot',
    );
    await fifth.next(isType('snapshot'));
  });

  const emailOf = async (who: Trader): Promise<string> => (await mod.accounts.get(who.accountId))!.email;
  const keyIdOf = async (who: Trader): Promise<string> =>
    (await mod.service.listKeys(await emailOf(who))).keys.find((k) => k.revokedAt === null)!.id;
  const cli = (...args: string[]) => runCli(args, { REDIS_URL: testRedisUrl() });
  const stillOpen = async (stream: TestStream): Promise<void> => {
    const from = stream.messages.length;
    stream.send({ op: 'ping' });
    await stream.next(isType('pong'), 2_000, from);
  };

  it('closes the open streams of a key revoked with the CLI on every pod, 4401 revoked_key, within a second; nothing else is touched', async () => {
    const email = await emailOf(trader);
    const keyId = await keyIdOf(trader);
    const sibling = { ...trader, apiKey: (await mod.service.createKey({ email })).apiKey };
    const stranger = await createTrader(mod, { plan: 'free' });
    const revoked = [connect(podA.url, { api_key: trader.apiKey }), connect(podB.url, { token: trader.apiKey })];
    const untouched = [connect(podA.url, { api_key: sibling.apiKey }), connect(podB.url, { api_key: stranger.apiKey })];
    for (const stream of [...revoked, ...untouched]) await stream.next(isType('snapshot'));

    const run = await cli('keys', 'revoke', '--email', email, '--id', keyId);
    expect(run.code, run.stderr).to.equal(0);
    for (const stream of revoked) {
      expect(await closedWithin(stream, 1_000)).to.deep.equal({ code: 4401, reason: 'revoked_key' });
      expect(stream.messages.at(-1)?.data).to.include({ code: 'revoked_key' });
    }
    // a new connection with the revoked key is refused before the upgrade
    expect(await refusedUpgrade(podB.url, { api_key: trader.apiKey })).to.deep.include({ status: 401 });
    // the account's other key and another account keep their streams, and their events
    for (const stream of untouched) await stillOpen(stream);
    const from = untouched[0].messages.length;
    await open(podA, 'ETH', sibling);
    await untouched[0].next((m) => m.type === 'position' && m.data?.event === 'opened', 2_000, from);
  });

  it('closes a stream whose key was revoked after its lookup and before its pod heard the account (4401 revoked_key)', async () => {
    const gate = new HeldGate(storedKeys(), 'lookup');
    const pod = await streamPod(gate.resolver);
    try {
      const looked = gate.nextCall();
      const stream = connect(pod.url, { api_key: trader.apiKey });
      await looked;
      // the key was active when it was read; its revoke's notice goes out before the pod listens to the account
      await mod.service.revokeKey(await emailOf(trader), await keyIdOf(trader));
      gate.releaseNext();
      gate.release();
      expect(await closedWithin(stream, 2_000)).to.deep.equal({ code: 4401, reason: 'revoked_key' });
      expect(stream.messages.filter(isType('snapshot'))).to.have.length(0);
    } finally {
      await pod.close();
    }
  });

  it('closes a stream whose key was revoked while its pod was not hearing the channel, once it hears it again', async () => {
    const stream = connect(podA.url, { api_key: trader.apiKey });
    await stream.next(isType('snapshot'));
    const from = stream.messages.length;
    // the revoke's notice cannot reach a pod whose subscriber is down: here it never goes out at all
    await redis.hset(keys.accountKey(trader.accountId, await keyIdOf(trader)), 'revoked', String(Date.now()));
    await killSubscribers(redis);
    expect(await closedWithin(stream, 5_000)).to.deep.equal({ code: 4401, reason: 'revoked_key' });
    expect(stream.messages.slice(from).filter(isType('snapshot'))).to.have.length(0);
  });

  it("closes the streams beyond the account's cap when a plan change lowers it, on every pod (4429 too_many_sockets), and keeps the rest", async () => {
    const stranger = await createTrader(mod, { plan: 'free' });
    const other = connect(podB.url, { api_key: stranger.apiKey });
    const held = [
      connect(podA.url, { api_key: trader.apiKey }),
      connect(podA.url, { api_key: trader.apiKey }),
      connect(podB.url, { api_key: trader.apiKey }),
    ];
    for (const stream of [other, ...held]) await stream.next(isType('snapshot'));
    // every plan allows 3 today: here the cap falls to 1 (what a plan change runs with the new plan's cap)
    expect(await new SocketCap(redis).enforce(trader.accountId, 1, Date.now())).to.equal(2);
    const cut: TestStream[] = [];
    for (const stream of held) void stream.closed.then(() => cut.push(stream));
    await waitFor(() => cut.length === 2, 1_000, 'two streams closed');
    for (const stream of cut) expect(await stream.closed).to.deep.equal({ code: 4429, reason: 'too_many_sockets' });
    const kept = held.find((stream) => !cut.includes(stream))!;
    await stillOpen(kept);
    await stillOpen(other);
    expect(await redis.zcard(keys.accountSockets(trader.accountId))).to.equal(1);
    const from = kept.messages.length;
    await open(podA, 'BTC');
    await kept.next((m) => m.type === 'position' && m.data?.event === 'opened', 2_000, from);

    // through the CLI: slots held beyond the plan's 3 (as a plan with a higher cap would leave them) that
    // lapse later than the open stream's, so the stream is the one cut
    const granted = new SocketSlots(redis, 120_000);
    for (const socketId of ['older.1', 'older.2', 'older.3'])
      expect((await granted.claim({ accountId: trader.accountId, socketId }, 10, Date.now())).ok).to.equal(true);
    const run = await cli('plans', 'set', '--email', await emailOf(trader), '--plan', 'pro', '--days', '30');
    expect(run.code, run.stderr).to.equal(0);
    expect(await closedWithin(kept, 1_000)).to.deep.equal({ code: 4429, reason: 'too_many_sockets' });
    expect(await redis.zrange(keys.accountSockets(trader.accountId), '0', '-1')).to.have.members(['older.1', 'older.2', 'older.3']);
    await stillOpen(other);
  });

  it('after a reconnect: a fresh snapshot, then the events after it, in order', async () => {
    const first = connect(podA.url, { api_key: trader.apiKey });
    await first.next(isType('snapshot'));
    first.ws.close();
    await first.closed;
    const btc = await open(podB, 'BTC');
    const again = connect(podA.url, { api_key: trader.apiKey });
    const snapshot = await again.next(isType('snapshot'));
    expect((snapshot.data?.positions as Pos[]).map((p) => p.id)).to.deep.equal([btc.id]);
    const from = again.messages.length;
    expect((await call(podB, 'POST', '/sltp', { id: btc.id, tp: 70000 })).status).to.equal(200);
    expect((await call(podB, 'POST', '/close', { id: btc.id })).status).to.equal(200);
    await waitFor(() => positionEvents(again, from).length === 2, 2_000, 'two events');
    expect(positionEvents(again, from)).to.deep.equal([
      { event: 'updated', id: btc.id },
      { event: 'closed', id: btc.id },
    ]);
  });

  it("re-sends a snapshot when the pod's channel subscription was cut (events of the gap are lost to it), then events again", async () => {
    const stream = connect(podA.url, { api_key: trader.apiKey });
    await stream.next(isType('snapshot'));
    const eth = await open(podB, 'ETH');
    await stream.next((m) => m.type === 'position' && m.data?.event === 'opened');
    const from = stream.messages.length;
    // every subscriber connection drops (the pods' and the relay's); ioredis reconnects them
    await killSubscribers(redis);
    const again = await stream.next(isType('snapshot'), 5_000, from);
    expect((again.data?.positions as Pos[]).map((p) => p.id)).to.include(eth.id);
    expect((await call(podB, 'POST', '/close', { id: eth.id })).status).to.equal(200);
    const closed = await stream.next((m) => m.type === 'position' && m.data?.event === 'closed', 5_000, from);
    expect((closed.data?.position as Pos).id).to.equal(eth.id);
  });

  it("keeps sending the latest prices across a cut of the pod's tick subscriber: a price of the gap is read, later ticks heard again", async () => {
    await open(podA, 'ETH');
    const stream = connect(podA.url, { api_key: trader.apiKey });
    await stream.next((m) => m.type === 'prices' && m.data?.ETH === 3000);
    await killSubscribers(redis);
    // published while the subscriber may be down: the pod does not hear it, and reads it instead
    await prices.set({ ETHUSDT: 3050 });
    await stream.next((m) => m.type === 'prices' && m.data?.ETH === 3050, 5_000);
    await prices.set({ ETHUSDT: 3060 });
    await stream.next((m) => m.type === 'prices' && m.data?.ETH === 3060, 5_000);
  });

  it('recycles a socket after STREAM_MAX_AGE_MS with close code 4000', async () => {
    const pod = await startTestApi(redis, { ...env, STREAM_MAX_AGE_MS: '1000' });
    try {
      const stream = connect(pod.url, { api_key: trader.apiKey });
      await stream.next(isType('snapshot'));
      expect(await stream.closed).to.deep.equal({ code: 4000, reason: 'recycled: reconnect' });
    } finally {
      await pod.close();
    }
  });

  it("lets a dead pod's slots lapse: a slot not renewed within its TTL no longer counts", async () => {
    const slots = new SocketSlots(redis, 1_000);
    const now = Date.now();
    for (const socketId of ['dead.1', 'dead.2', 'dead.3'])
      expect((await slots.claim({ accountId: 'lapse', socketId }, 3, now)).ok).to.equal(true);
    expect(await slots.claim({ accountId: 'lapse', socketId: 'live.1' }, 3, now + 500)).to.deep.equal({ ok: false, held: 3 });
    expect(await slots.claim({ accountId: 'lapse', socketId: 'live.1' }, 3, now + 1_001)).to.deep.equal({ ok: true, held: 1 });
  });

  it('drives the sweep of each connected book once per tick, on one pod however many hold its sockets', async () => {
    const swept: { ref: BookRef; at: number }[] = [];
    const sweep = async (ref: BookRef): Promise<void> => void swept.push({ ref, at: Date.now() });
    const pods = [await streamPod(storedKeys(), sweep), await streamPod(storedKeys(), sweep)];
    try {
      await open(podA, 'ETH');
      for (const pod of pods) await connect(pod.url, { api_key: trader.apiKey }).next(isType('snapshot'));
      const started = swept.length;
      // the book is swept tick after tick...
      await waitFor(() => swept.length >= started + 5, 10_000, 'five sweeps of the book');
      const ticks = swept.slice(started);
      expect(ticks.every((s) => s.ref.accountId === trader.accountId && s.ref.book === 'main')).to.equal(true);
      // ...once per tick of 200 ms, not by both pods that hold its sockets: a turn (180 ms) keeps any two
      // sweeps of the book apart, where two pods sweeping every tick would leave a gap of 100 ms or less
      // in every 200 ms (the bound leaves room for a late reply to one pod)
      const gaps = ticks.slice(1).map((s, i) => s.at - ticks[i].at);
      expect(Math.min(...gaps), gaps.join(' ')).to.be.above(120);
    } finally {
      for (const pod of pods) await pod.close();
    }
  });

  it('closes a position whose stop the live price crossed, within a tick or two, while its book is connected (the connected-book sweep)', async () => {
    const r = await call(podA, 'POST', '/open', { symbol: 'BTC', side: 'long', margin_usd: 100, leverage: 10, sl: 59_000 });
    expect(r.status, JSON.stringify(r.body)).to.equal(200);
    const stream = connect(podB.url, { api_key: trader.apiKey });
    await stream.next(isType('snapshot'));
    const from = stream.messages.length;
    await prices.set({ BTCUSDT: 58_500 });
    const closed = await stream.next((m) => m.type === 'position' && m.data?.event === 'closed', 3_000, from);
    expect(closed.data?.position).to.include({ id: r.body.position.id, status: 'closed' });
  });

  it('answers any frame a client sends without closing its socket; an oversized frame closes only that socket (1009)', async () => {
    const stream = connect(podA.url, { api_key: trader.apiKey });
    await stream.next(isType('snapshot'));
    const frames = fc.sample(
      fc.oneof(
        fc.string({ maxLength: 60 }),
        fc.json(),
        fc.constantFrom('{"op":"subscribe"}', '{"op":"subscribe","channels":"prices"}', '{"op":null}', '[]', 'null', '{"op":"ping","x":1}'),
      ),
      80,
    );
    const from = stream.messages.length;
    for (const frame of frames) stream.ws.send(frame);
    stream.ws.send(Buffer.from([0, 1, 2]), { binary: true });
    await waitFor(
      () => stream.messages.slice(from).filter((m) => ['error', 'pong', 'subscribed'].includes(m.type)).length === frames.length + 1,
      5_000,
      'an answer to every frame',
    );
    expect(stream.ws.readyState).to.equal(stream.ws.OPEN);
    stream.ws.send('x'.repeat(10_000));
    expect((await stream.closed).code).to.equal(1009);
    const after = connect(podA.url, { api_key: trader.apiKey });
    await after.next(isType('snapshot'));
  });
});
