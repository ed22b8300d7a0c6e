// @three-masters: pods and workers killed under load on three masters
import { expect } from 'chai';
import type { RedisClient } from '../../shared/core/redis-client.js';
import { closeRedis, clusterSeeds, createRedis } from '../../shared/redis/connection.js';
import { freePort } from '../../shared/redis/embedded.js';
import { keys } from '../../shared/redis/keys.js';
import { QUEUE_PREFIX, QUEUES } from '../../shared/queues/queue-names.js';
import type { JsonResponse } from '../helpers/app.js';
import { runCliProcess } from '../helpers/cli.js';
import { startClusterRedis, type ClusterRedis } from '../helpers/cluster-redis.js';
import { simControl, startScriptedSim, type SimHandle } from '../helpers/market-sim.js';
import { waitFor } from '../helpers/market-wait.js';
import { chaosLoadMs, spawnService, type ServiceProcess } from '../helpers/process.js';
import { connectStream, startReceiver, type ReceivedDelivery, type TestReceiver, type TestStream } from '../helpers/push.js';
import { flushRedis, testRedisUrl } from '../helpers/redis.js';
import { accountServices, botCall, createTrader, type Trader } from '../helpers/trading.js';

/** How long the mixed load runs; PERPDESK_CHAOS_LOAD_MS shortens it for a local run (the kills are placed at fractions of it). */
const LOAD_MS = chaosLoadMs(45_000);
const FEED_LEASE_MS = 2_000;
/** Accounts trading through the API, two clients each; the first STREAMED have a stream socket on the pod never killed. */
const TRADERS = 6;
const STREAMED = 3;
/** Accounts holding long SOL positions with one stop, all fired at once while a worker is killed. */
const BURST_ACCOUNTS = 3;
const BURST_EACH = 250;
const SOL = 150;
const BURST_SL = 148.5;
const VENUES = ['binance', 'bybit', 'okx', 'bitget'] as const;
/** How long a process may take to come up: tsx compiles its sources first, slow on a loaded 2-core machine. */
const STARTUP_MS = 120_000;

type Side = 'long' | 'short';
interface PositionBody {
  id: string;
  entry: number;
  side: Side;
}
interface OrderBody {
  order_id: string;
  status: string;
}
interface Body {
  error?: string;
  position?: PositionBody;
  order?: OrderBody;
  orders?: OrderBody[];
  trades?: { id: string }[];
  next_before?: string | number | null;
  webhook?: { id: string };
  idempotent?: boolean;
}
type Answer = JsonResponse<Body>;
interface Delivery {
  id: string;
  event: string;
  hookId: string;
  body: string;
  data: { id?: string; order_id?: string };
}

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)];
const cents = (price: number): number => Math.round(price * 100) / 100;
const increment = (counts: Map<string, number>, key: string): void => {
  counts.set(key, (counts.get(key) ?? 0) + 1);
};
/** The stream's name for a position event (a liquidation is a close there). */
const STREAM_EVENT: Record<string, string> = {
  'position.opened': 'opened',
  'position.updated': 'updated',
  'position.closed': 'closed',
  'position.liquidated': 'closed',
};

/**
 * Chaos under load (issue 29): two API pods, two worker processes and two feed processes, real child processes on a
 * Redis Cluster of three masters (REDIS_CLUSTER=true) and the simulated exchange, under a mixed load of opens with
 * client_order_id, closes, sltp, position reads and limit orders, with stream sockets and a webhook receiver. During
 * it one API pod, one worker (while the live sweep is settling a burst of stops) and the feed holding the leases are
 * SIGKILLed and restarted. A client whose request dies with a pod sends it again to the other pod, unchanged (the same
 * client_order_id). After it: every 2xx was applied once, the ledger audit finds nothing, every outbox entry was
 * relayed to the webhook receiver and the streams, and the standby feed took over within the lease.
 * Run by `npm run test:cluster3`; not part of `npm test`.
 */
describe('chaos: pods, a worker and the active feed killed under a mixed load on three masters', function () {
  this.timeout(LOAD_MS + 300_000);
  let ownCluster: ClusterRedis | undefined;
  let address: string;
  let seeds: string;
  let redis: RedisClient;
  let sim: SimHandle;
  let receiver: TestReceiver;
  const spawned: ServiceProcess[] = [];
  const streams: TestStream[] = [];

  const env = (extra: Record<string, string>): Record<string, string> => ({
    REDIS_URL: seeds,
    REDIS_CLUSTER: 'true',
    MARKET_SOURCE: 'sim',
    SIM_URL: sim.url,
    FEED_LEASE_MS: String(FEED_LEASE_MS),
    PRICE_FRESH_MS: '3000',
    QUOTE_CACHE_MS: '0',
    PUBLIC_RATE_LIMIT: '1000000',
    UNIVERSE_SIZE: '10',
    STREAM_RECONNECT_MAX_MS: '500',
    WEBHOOK_ALLOW_PRIVATE: 'true',
    WEBHOOK_LOCK_MS: '1000',
    WEBHOOK_RETRY_BASE_MS: '200',
    LOG_LEVEL: 'warn',
    ...extra,
  });
  const spawn = (extra: Record<string, string>): ServiceProcess => {
    const child = spawnService(env(extra));
    spawned.push(child);
    return child;
  };
  const startApi = async (port: number): Promise<ServiceProcess> => {
    const pod = spawn({ ROLE: 'api', HOST: '127.0.0.1', PORT: String(port) });
    await waitFor(
      async () => (await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => undefined))?.status === 200,
      STARTUP_MS,
      `the API pod on ${port} ready`,
      100,
    );
    return pod;
  };
  const startWorker = async (): Promise<ServiceProcess> => {
    const worker = spawn({ ROLE: 'worker', LOG_LEVEL: 'info' });
    await worker.waitForLine((line) => line.includes('worker role started'), STARTUP_MS);
    return worker;
  };
  /** The pid of each venue's lease holder (owners are host:pid:nonce), 0 for none. */
  const leaseHolders = async (): Promise<number[]> =>
    Promise.all(VENUES.map(async (venue) => Number((await redis.get(keys.feedLease(venue)))?.split(':')[1] ?? 0)));
  const killed = async (child: ServiceProcess): Promise<void> => {
    child.child.kill('SIGKILL');
    await child.exit;
  };

  before(async function () {
    this.timeout(180_000);
    const suite = testRedisUrl();
    // the suite's Redis when it is three masters (npm run test:cluster3), else a cluster of our own
    if ((clusterSeeds(suite)?.length ?? 0) >= 3) address = suite;
    else address = (ownCluster = await startClusterRedis(3)).url;
    seeds = (clusterSeeds(address) ?? []).map((url) => `redis://${url.host}`).join(',');
    redis = createRedis(address);
    await flushRedis(redis);
    sim = await startScriptedSim();
    receiver = await startReceiver();
  });

  after(async () => {
    for (const stream of streams) stream.ws.terminate();
    await Promise.all(
      spawned.map(async (child) => {
        if (child.child.exitCode !== null || child.child.signalCode !== null) return;
        child.child.kill('SIGTERM');
        const timer = setTimeout(() => child.child.kill('SIGKILL'), 15_000);
        await child.exit;
        clearTimeout(timer);
      }),
    );
    await receiver?.close();
    await sim?.close();
    if (redis) await closeRedis(redis);
    await ownCluster?.stop();
  });

  it('answers every request 2xx or a named refusal, applies each 2xx once, audits clean, relays every event and fails the feed over within its lease', async () => {
    // prices first: the feed starts on the sim's quotes; the driver keeps them moving (and fresh) all along
    const prices: Record<string, number> = { BTCUSDT: 67_000, ETHUSDT: 3_500, SOLUSDT: SOL };
    const setPrices = (): Promise<unknown> =>
      Promise.all(Object.entries(prices).map(([symbol, price]) => simControl(sim, 'price', { symbol, price })));
    await setPrices();

    // the first feed holds every lease before the standby starts, so the active one is known
    const feeds = [spawn({ ROLE: 'feed' })];
    await waitFor(
      async () => (await leaseHolders()).every((pid) => pid === feeds[0].child.pid),
      STARTUP_MS,
      'the first feed holding every lease',
    );
    feeds.push(spawn({ ROLE: 'feed' }));
    const ports = [await freePort(), await freePort()];
    const [apis, workers] = await Promise.all([Promise.all(ports.map(startApi)), Promise.all([startWorker(), startWorker()])]);
    const urls = ports.map((port) => `http://127.0.0.1:${port}`);

    // what the clients saw: outcomes by kind, and every acknowledged write
    const newOutcomes = () => ({
      sent: 0,
      ok: 0,
      connectionErrors: 0,
      retried: new Map<string, number>(),
      refused: new Map<string, number>(),
      gaveUp: 0,
    });
    let outcomes = newOutcomes();
    const serverErrors: Answer[] = [];
    let turn = 0;
    /**
     * One request as a client behind a load balancer sends it: round robin over the pods; a connection error (the pod
     * died) is sent again, unchanged, to the other pod, and so are the named retryable answers (503 unavailable,
     * 409 busy). Answers the final answer, undefined when it never got one.
     */
    const send = async (
      trader: Trader,
      method: 'GET' | 'POST',
      path: string,
      body?: Record<string, unknown>,
    ): Promise<Answer | undefined> => {
      let pod = turn++ % urls.length;
      for (let attempt = 0; attempt < 50; attempt++) {
        let answer: Answer;
        outcomes.sent++;
        try {
          answer = await botCall<Body>(urls[pod], trader, method, path, body);
        } catch {
          outcomes.connectionErrors++;
          pod = (pod + 1) % urls.length;
          await pause(20);
          continue;
        }
        const code = answer.body?.error ?? '';
        if ((answer.status === 503 && code === 'unavailable') || (answer.status === 409 && code === 'busy')) {
          increment(outcomes.retried, `${answer.status} ${code}`);
          pod = (pod + 1) % urls.length;
          await pause(50);
          continue;
        }
        if (answer.status < 300) outcomes.ok++;
        else if (answer.status < 500) increment(outcomes.refused, `${answer.status} ${code}`);
        else serverErrors.push(answer);
        return answer;
      }
      outcomes.gaveUp++;
      return undefined;
    };

    const services = accountServices(redis);
    /** Each account has a webhook for every event, to the receiver: the hook's id names the account of a delivery. */
    const hookAccount = new Map<string, string>();
    const newTrader = async (): Promise<Trader> => {
      const trader = await createTrader(services, { plan: 'business' });
      const added = await send(trader, 'POST', '/webhooks', { act: 'add', url: `${receiver.url}/hook` });
      expect(added?.status, JSON.stringify(added?.body)).to.equal(200);
      hookAccount.set(added?.body.webhook?.id ?? '', trader.accountId);
      return trader;
    };
    const traders = await Promise.all(Array.from({ length: TRADERS }, newTrader));
    const burst = await Promise.all(Array.from({ length: BURST_ACCOUNTS }, newTrader));
    for (const trader of traders.slice(0, STREAMED)) {
      const stream = connectStream(urls[1], { api_key: trader.apiKey });
      streams.push(stream);
      await stream.next(() => true, 10_000);
    }
    // the burst: long SOL positions with one stop, set off by one price move during the load
    for (const trader of burst) {
      for (let i = 0; i < BURST_EACH; i += 25) {
        await Promise.all(
          Array.from({ length: 25 }, (_, j) =>
            send(trader, 'POST', '/open', {
              symbol: 'SOL',
              side: 'long',
              margin_usd: 10,
              leverage: 5,
              sl: BURST_SL,
              client_order_id: `b-${i + j}`,
            }).then((r) => expect(r?.status, JSON.stringify(r?.body)).to.equal(200)),
          ),
        );
      }
    }
    const setup = outcomes;
    outcomes = newOutcomes();

    const ackedOpens = new Map<string, { accountId: string; positionId: string }>();
    const ackedCloses: { accountId: string; positionId: string }[] = [];
    const ackedSltp: { accountId: string; positionId: string }[] = [];
    const ackedCancels: { accountId: string; orderId: string }[] = [];
    let replayedOpens = 0;
    let stopped = false;
    const loadStart = Date.now();
    const loadEnd = loadStart + LOAD_MS;

    const driver = (async () => {
      while (!stopped) {
        for (const symbol of ['BTCUSDT', 'ETHUSDT']) prices[symbol] = cents(prices[symbol] * (1 + (Math.random() - 0.5) * 0.002));
        await setPrices();
        await pause(250);
      }
    })();

    const client = async (trader: Trader, index: number): Promise<void> => {
      const open = new Map<string, PositionBody>();
      const resting = new Set<string>();
      for (let n = 0; Date.now() < loadEnd; n++) {
        const roll = Math.random();
        if (roll < 0.35 || open.size === 0) {
          const symbol = pick(['BTCUSDT', 'ETHUSDT']);
          const side = pick<Side>(['long', 'short']);
          const dir = side === 'long' ? 1 : -1;
          const levels =
            Math.random() < 0.5 ? { sl: cents(prices[symbol] * (1 - dir * 0.004)), tp: cents(prices[symbol] * (1 + dir * 0.006)) } : {};
          const clientOrderId = `o-${index}-${n}`;
          const body = {
            symbol: symbol.replace('USDT', ''),
            side,
            margin_usd: 20,
            leverage: 20,
            client_order_id: clientOrderId,
            ...levels,
          };
          const r = await send(trader, 'POST', '/open', body);
          if (r && r.status < 300 && r.body.position) {
            open.set(r.body.position.id, r.body.position);
            // sent again after its first answer was lost with a pod, and answered with what the first one made
            if (r.body.idempotent) replayedOpens++;
            ackedOpens.set(`${trader.accountId}/${clientOrderId}`, { accountId: trader.accountId, positionId: r.body.position.id });
          }
        } else if (roll < 0.6) {
          const position = pick([...open.values()]);
          const r = await send(trader, 'POST', '/close', { id: position.id, client_order_id: `c-${index}-${n}` });
          // a 4xx: the sweep closed it first
          if (r) open.delete(position.id);
          if (r && r.status < 300) ackedCloses.push({ accountId: trader.accountId, positionId: position.id });
        } else if (roll < 0.75) {
          const position = pick([...open.values()]);
          const dir = position.side === 'long' ? 1 : -1;
          const r = await send(trader, 'POST', '/sltp', {
            id: position.id,
            sl: cents(position.entry * (1 - dir * 0.005)),
            tp: cents(position.entry * (1 + dir * 0.008)),
          });
          if (r && r.status < 300) ackedSltp.push({ accountId: trader.accountId, positionId: position.id });
          else if (r) open.delete(position.id);
        } else if (roll < 0.9) {
          await send(trader, 'GET', '/positions');
        } else if (resting.size < 4) {
          const symbol = pick(['BTCUSDT', 'ETHUSDT']);
          const side = pick<Side>(['long', 'short']);
          const limit = cents(prices[symbol] * (side === 'long' ? 0.995 : 1.005));
          const body = {
            symbol: symbol.replace('USDT', ''),
            side,
            type: 'limit',
            limit_price: limit,
            margin_usd: 10,
            leverage: 10,
            client_order_id: `l-${index}-${n}`,
          };
          const r = await send(trader, 'POST', '/open', body);
          if (r && r.status < 300 && r.body.order) resting.add(r.body.order.order_id);
        } else {
          const orderId = pick([...resting]);
          const r = await send(trader, 'POST', '/cancel_order', { order_id: orderId });
          if (r) resting.delete(orderId);
          if (r && r.status < 300) ackedCancels.push({ accountId: trader.accountId, orderId });
        }
      }
    };
    const clients = traders.flatMap((trader, t) => [client(trader, 2 * t), client(trader, 2 * t + 1)]);

    const at = async (fraction: number): Promise<void> => {
      const wait = loadStart + fraction * LOAD_MS - Date.now();
      if (wait > 0) await pause(wait);
    };
    const chaos = { apiDownMs: 0, workerMidSweep: false, workerSettledBeforeKill: 0, failoverMs: 0, kills: 0 };
    const burstClosed = async (): Promise<number> =>
      (await Promise.all(burst.map((b) => redis.hget(keys.bookStats(b.accountId, 'main'), 'closed')))).reduce(
        (sum, v) => sum + Number(v ?? 0),
        0,
      );
    /** The worker process running a sweep job now (each job records the process that took it: host:pid). */
    const sweepingWorker = async (): Promise<ServiceProcess | undefined> => {
      for (const queue of [QUEUES.liveSweep, QUEUES.sweep]) {
        for (const id of await redis.lrange(`${QUEUE_PREFIX}:${queue}:active`, 0, -1)) {
          const pid = Number((await redis.hget(`${QUEUE_PREFIX}:${queue}:${id}`, 'pb'))?.split(':')[1]);
          const worker = workers.find((w) => w.child.pid === pid);
          if (worker) return worker;
        }
      }
      return undefined;
    };
    // the three kills, each at its point of the load and restarted as an orchestrator would, independently
    const killApi = (async () => {
      await at(0.15);
      const killedAt = Date.now();
      await killed(apis[0]);
      chaos.kills++;
      apis[0] = await startApi(ports[0]);
      chaos.apiDownMs = Date.now() - killedAt;
    })();
    const killWorker = (async () => {
      await at(0.35);
      // while the sweep settles the burst: the price falls through every stop at once
      prices.SOLUSDT = SOL * 0.98;
      const total = BURST_ACCOUNTS * BURST_EACH;
      const victim = await waitFor(
        async () => {
          const settled = await burstClosed();
          if (settled >= total) return { worker: workers[0], settled, mid: false };
          const worker = settled > 0 ? await sweepingWorker() : undefined;
          return worker && { worker, settled, mid: true };
        },
        20_000,
        'the sweep settling the burst',
        5,
      );
      await killed(victim.worker);
      chaos.kills++;
      chaos.workerMidSweep = victim.mid;
      chaos.workerSettledBeforeKill = victim.settled;
      workers[workers.indexOf(victim.worker)] = await startWorker();
    })();
    const killFeed = (async () => {
      await at(0.55);
      // the feed holding the leases; the standby takes them when they lapse
      const [active, standby] = feeds;
      expect(await leaseHolders()).to.deep.equal(VENUES.map(() => active.child.pid));
      const killedAt = Date.now();
      await killed(active);
      chaos.kills++;
      await waitFor(
        async () => (await leaseHolders()).every((pid) => pid === standby.child.pid),
        10_000,
        'the standby holding every lease',
        10,
      );
      chaos.failoverMs = Date.now() - killedAt;
      feeds.splice(0, 2, standby, spawn({ ROLE: 'feed' }));
    })();

    await Promise.all([...clients, killApi, killWorker, killFeed]);
    const loadMs = Date.now() - loadStart;
    const load = outcomes;
    outcomes = newOutcomes();

    // the clients flatten their books: resting orders cancelled, then every position closed, so nothing fires later
    for (const trader of [...traders, ...burst]) {
      const orders = await send(trader, 'GET', '/orders');
      for (const order of orders?.body.orders ?? []) await send(trader, 'POST', '/cancel_order', { order_id: order.order_id });
      expect((await send(trader, 'POST', '/close_all', {}))?.status).to.equal(200);
    }
    stopped = true;
    await driver;

    // every outbox emptied by the relays, and each of its entries delivered to the receiver (by delivery id)
    const accounts = [...traders, ...burst].map((t) => t.accountId);
    const deliveries = (): Map<string, Delivery[]> => {
      const byId = new Map<string, Delivery[]>();
      for (const d of receiver.received as ReceivedDelivery[]) {
        const parsed = JSON.parse(d.body) as { event: string; hook_id: string; data: Delivery['data'] };
        const id = String(d.headers['x-pd-delivery']);
        byId.set(id, [...(byId.get(id) ?? []), { id, event: parsed.event, hookId: parsed.hook_id, body: d.body, data: parsed.data }]);
      }
      return byId;
    };
    const added = new Map<string, number>();
    await waitFor(
      async () => {
        for (const accountId of accounts) {
          const info = (await redis.xinfo('STREAM', keys.accountOutbox(accountId))) as unknown[];
          const field = (name: string): number => Number(info[info.indexOf(name) + 1]);
          if (field('length') !== 0) return false;
          added.set(accountId, field('entries-added'));
        }
        const delivered = new Map<string, number>();
        // a resting order placed also wrote order.placed (the channel's, never a webhook's), and ended in one delivered
        // order event (filled, cancelled or expired: the books were flattened above)
        const placed = new Map<string, Set<string>>();
        for (const [first] of deliveries().values()) {
          const account = hookAccount.get(first.hookId) ?? '?';
          increment(delivered, account);
          const orderId = first.event.startsWith('order.') ? first.data.order_id : undefined;
          if (orderId !== undefined) placed.set(account, (placed.get(account) ?? new Set<string>()).add(orderId));
        }
        return accounts.every((a) => (delivered.get(a) ?? 0) + (placed.get(a)?.size ?? 0) === added.get(a));
      },
      60_000,
      'every outbox relayed and every entry delivered',
      250,
    );
    const byId = deliveries();
    const unique = [...byId.values()].map(([first]) => first);
    const duplicates = [...byId.values()].filter((copies) => copies.length > 1);
    for (const copies of duplicates) expect(new Set(copies.map((c) => c.body)).size, 'a redelivery carries the same body').to.equal(1);
    const events = new Map<string, number>();
    for (const d of unique) increment(events, `${hookAccount.get(d.hookId)}/${d.event}/${d.data.id ?? d.data.order_id}`);
    const eventCount = (accountId: string, event: string, id: string): number => events.get(`${accountId}/${event}/${id}`) ?? 0;

    // every trade of every book, read through the API as a client would
    const tradesOf = async (trader: Trader): Promise<{ id: string }[]> => {
      const all: { id: string }[] = [];
      let before: string | undefined;
      for (;;) {
        const page = await send(trader, 'GET', `/trades?limit=500${before ? `&before=${before}` : ''}`);
        all.push(...(page?.body.trades ?? []));
        if (!page?.body.next_before) return all;
        before = String(page.body.next_before);
      }
    };
    let trades = 0;
    for (const trader of [...traders, ...burst]) {
      expect((await send(trader, 'GET', '/positions'))?.body, 'nothing left open').to.deep.include({ positions: [] });
      const book = await tradesOf(trader);
      trades += book.length;
      // the stored closed records say what a trade row leaves out: the client_order_id its position was opened with
      const stored = await redis.hgetall(keys.bookClosed(trader.accountId, 'main'));
      expect(Object.keys(stored).sort(), 'every trade is a stored closed position').to.deep.equal(book.map((t) => t.id).sort());
      const clientOrderOf = (id: string): string | null => (JSON.parse(stored[id]) as { client_order_id: string | null }).client_order_id;
      const perId = new Map<string, number>();
      const perClientOrder = new Map<string, number>();
      for (const trade of book) {
        increment(perId, trade.id);
        const clientOrderId = clientOrderOf(trade.id);
        if (clientOrderId?.startsWith('o-')) increment(perClientOrder, clientOrderId);
        // each position opened once and settled once, as the events say too
        expect(eventCount(trader.accountId, 'position.opened', trade.id), `opened ${trade.id}`).to.equal(1);
        const closes =
          eventCount(trader.accountId, 'position.closed', trade.id) + eventCount(trader.accountId, 'position.liquidated', trade.id);
        expect(closes, `settlements of ${trade.id}`).to.equal(1);
      }
      expect(
        [...perId.values()].every((count) => count === 1),
        'one closed trade per position',
      ).to.equal(true);
      expect(
        [...perClientOrder.values()].every((count) => count === 1),
        'one position per client_order_id',
      ).to.equal(true);
      // the market opens in the book are exactly the acknowledged ones, each the position its 2xx named
      const acked = [...ackedOpens].filter(([, open]) => open.accountId === trader.accountId);
      expect(perClientOrder.size).to.equal(acked.length);
      const byClientOrder = new Map(book.map((trade) => [clientOrderOf(trade.id), trade.id]));
      for (const [key, open] of acked) expect(byClientOrder.get(key.split('/')[1])).to.equal(open.positionId);
      if (burst.includes(trader)) expect(book).to.have.length(BURST_EACH);
    }
    const tradeIds = new Set<string>();
    for (const d of unique)
      if (d.event === 'position.closed' || d.event === 'position.liquidated') tradeIds.add(`${hookAccount.get(d.hookId)}/${d.data.id}`);
    for (const close of ackedCloses)
      expect(tradeIds.has(`${close.accountId}/${close.positionId}`), `close of ${close.positionId}`).to.equal(true);
    for (const change of ackedSltp) expect(eventCount(change.accountId, 'position.updated', change.positionId)).to.be.at.least(1);
    for (const cancel of ackedCancels) expect(eventCount(cancel.accountId, 'order.cancelled', cancel.orderId)).to.equal(1);

    // each stream saw its account's position events, once each
    for (const [i, stream] of streams.entries()) {
      const accountId = traders[i].accountId;
      const expected = new Map<string, number>();
      for (const d of unique)
        if (hookAccount.get(d.hookId) === accountId && STREAM_EVENT[d.event]) increment(expected, `${STREAM_EVENT[d.event]}/${d.data.id}`);
      const seen = (): Map<string, number> => {
        const counts = new Map<string, number>();
        for (const m of stream.messages)
          if (m.type === 'position') increment(counts, `${String(m.data?.event)}/${String((m.data?.position as { id: string }).id)}`);
        return counts;
      };
      await waitFor(() => seen().size >= expected.size, 10_000, `the stream of ${accountId}`);
      expect(seen()).to.deep.equal(expected);
    }

    const audit = await runCliProcess(['audit'], { REDIS_URL: seeds, REDIS_CLUSTER: 'true' });
    expect(audit.code, audit.stdout + audit.stderr).to.equal(0);
    expect(audit.stdout).to.match(/no differences\n$/);

    expect(serverErrors.map((a) => `${a.status} ${JSON.stringify(a.body)}`)).to.deep.equal([]);
    expect(setup.gaveUp + load.gaveUp + outcomes.gaveUp).to.equal(0);
    expect(chaos.kills).to.equal(3);
    // the lease lapses at most FEED_LEASE_MS after the kill and the standby tries as it lapses (plus a loaded machine's delays)
    expect(chaos.failoverMs).to.be.at.most(FEED_LEASE_MS + 500);

    const streamed = streams.reduce((sum, s) => sum + s.messages.filter((m) => m.type === 'position').length, 0);
    console.log(
      [
        `chaos run: ${Math.round(loadMs / 1000)} s of load by ${TRADERS * 2} clients: ${load.sent} requests sent, ${load.ok} answered 2xx`,
        `  sent again after a connection error (a killed pod): ${load.connectionErrors}; after a named retryable answer: ${JSON.stringify(Object.fromEntries(load.retried))}`,
        `  refused 4xx by name: ${JSON.stringify(Object.fromEntries(load.refused))}; 5xx other than 503 unavailable: ${serverErrors.length}`,
        `  acknowledged: ${ackedOpens.size} opens, ${ackedCloses.length} closes, ${ackedSltp.length} sltp, ${ackedCancels.length} cancels; ${trades} closed trades; ${replayedOpens} opens answered idempotent (a resend after a lost answer)`,
        `  kills: ${chaos.kills} (API pod back in ${chaos.apiDownMs} ms; worker ${chaos.workerMidSweep ? 'mid-sweep' : 'after the sweep'}, ${chaos.workerSettledBeforeKill} of ${BURST_ACCOUNTS * BURST_EACH} stops settled; feed failover ${chaos.failoverMs} ms, lease ${FEED_LEASE_MS} ms)`,
        `  outbox entries ${[...added.values()].reduce((a, b) => a + b, 0)}, webhook deliveries ${receiver.received.length} (${unique.length} distinct, ${duplicates.length} redelivered with the same X-PD-Delivery), stream position events ${streamed}`,
      ].join('\n'),
    );
  });
});
