// @three-masters: the listenKey index and the account channels on any master
// The Binance USDⓈ-M user-data stream: listenKeys over /fapi, the socket at /ws/<listenKey> (and ccxt pro's
// /private/ws?listenKey=), fed from the account's relayed events.
import { expect } from 'chai';
import { createHmac } from 'node:crypto';
import ccxt from 'ccxt';
import { WebSocket } from 'ws';
import type { RedisClient } from '../../shared/core/redis-client.js';
import { configWith } from '../../shared/config.js';
import { createAccountServices, type AccountServices } from '../../shared/paper/accounts/account-services.js';
import { closeRedis, masterNodes } from '../../shared/redis/connection.js';
import { keys } from '../../shared/redis/keys.js';
import type { RunningRole } from '../../workers/runtime.js';
import { getJson, startTestApi, type TestApi } from '../helpers/app.js';
import { Arrivals } from '../helpers/arrivals.js';
import { waitFor } from '../helpers/market-wait.js';
import { startTestRelay } from '../helpers/push.js';
import { freshRedis } from '../helpers/redis.js';
import { binanceHosts } from '../helpers/binance.js';
import { TestPrices } from '../helpers/trading.js';

interface SecretKey {
  apiKey: string;
  secret: string;
  accountId: string;
}

type Event = Record<string, unknown> & { e: string; o?: Record<string, unknown>; a?: { m: string; B: Rec[]; P: Rec[] } };
type Rec = Record<string, unknown>;

interface UserSocket {
  ws: WebSocket;
  events: Event[];
  next(match: (event: Event) => boolean, from?: number): Promise<Event>;
  closed: Promise<{ code: number }>;
}

let emails = 0;

/** A watch's answer, or a failure naming it after 15 s (rather than the test's timeout, which names nothing). */
function within<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => (timer = setTimeout(() => reject(new Error(`${what}: nothing in 15 s`)), 15_000)));
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

describe('Binance USDⓈ-M user-data stream (listenKey, /ws/<listenKey>)', function () {
  this.timeout(60_000);
  let redis: RedisClient;
  let api: TestApi;
  let relay: RunningRole;
  let accounts: AccountServices;
  let prices: TestPrices;
  const sockets: WebSocket[] = [];

  before(async () => {
    redis = await freshRedis();
    api = await startTestApi(redis, { PUBLIC_RATE_LIMIT: '1000000' });
    relay = await startTestRelay(redis, { RELAY_SCAN_MS: '200' });
    accounts = createAccountServices({ redis, secretsKey: configWith().webhookSecretsKey });
    prices = new TestPrices(redis);
  });
  after(async () => {
    for (const ws of sockets) ws.terminate();
    await relay.stop();
    await api.close();
    await closeRedis(redis);
  });
  beforeEach(() => prices.set({ BTCUSDT: 65000, ETHUSDT: 3500 }));

  const newKey = async (opts: { email?: string; book?: string } = {}): Promise<SecretKey> => {
    const email = opts.email ?? `uds${++emails}-${Date.now()}@example.org`;
    const created = await accounts.service.createKey({ email, plan: 'business', secret: true, ...(opts.book ? { book: opts.book } : {}) });
    return { apiKey: created.apiKey, secret: created.secret ?? '', accountId: created.account.id };
  };

  const call = <T = Rec>(key: SecretKey | null, method: string, path: string, params: Record<string, string> = {}, sign = false) => {
    const query = new URLSearchParams(sign ? { ...params, timestamp: String(Date.now()) } : params).toString();
    const signature = key && sign ? `&signature=${createHmac('sha256', key.secret).update(query).digest('hex')}` : '';
    return getJson<T>(`${api.url}/fapi${path}?${query}${signature}`, {
      method,
      headers: key ? { 'X-MBX-APIKEY': key.apiKey } : {},
    });
  };
  const listenKeyOf = async (key: SecretKey): Promise<string> =>
    (await call<{ listenKey: string }>(key, 'POST', '/v1/listenKey')).body.listenKey;
  const order = (key: SecretKey, params: Record<string, string>) =>
    call<Rec & { orderId: string; code?: number }>(key, 'POST', '/v1/order', { symbol: 'BTCUSDT', type: 'MARKET', ...params }, true);

  const connect = (path: string): UserSocket => {
    const ws = new WebSocket(`${api.url.replace(/^http/, 'ws')}${path}`);
    sockets.push(ws);
    const events: Event[] = [];
    const arrivals = new Arrivals(
      () => events,
      () => `user-data events ${JSON.stringify(events).slice(0, 2000)}`,
    );
    ws.on('message', (data) => {
      events.push(JSON.parse(data.toString()) as Event);
      arrivals.arrived();
    });
    const closed = new Promise<{ code: number }>((resolve) => ws.once('close', (code) => resolve({ code })));
    return { ws, events, closed, next: (match, from = 0) => arrivals.next(match, 15_000, from) };
  };
  /** The pod hears the account's channel (its socket is set up): events published from now on reach it. */
  const heard = (accountId: string): Promise<unknown> =>
    waitFor(
      async () => {
        const counts = await Promise.all(
          (await masterNodes(redis)).map(async (node) =>
            Number(((await node.pubsub('NUMSUB', keys.accountEvents(accountId))) as string[])[1]),
          ),
        );
        return counts.reduce((a, b) => a + b, 0) > 0;
      },
      5_000,
      `a subscriber of ${accountId}'s channel`,
    );
  /** An upgrade the server must refuse in HTTP: its status and body. */
  const refused = (path: string): Promise<{ status: number; body: { code: number; msg: string } }> =>
    new Promise((resolve, reject) => {
      const ws = new WebSocket(`${api.url.replace(/^http/, 'ws')}${path}`);
      ws.on('error', () => undefined);
      ws.once('open', () => {
        ws.terminate();
        reject(new Error('the upgrade was accepted'));
      });
      ws.once('unexpected-response', (_req, res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.once('end', () => {
          ws.terminate();
          resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString()) as { code: number; msg: string } });
        });
      });
    });

  it('POST /fapi/v1/listenKey with the API key alone: 64 characters, the same one again while valid, extended by PUT', async () => {
    const key = await newKey();
    const first = await call<{ listenKey: string }>(key, 'POST', '/v1/listenKey');
    expect(first.status).to.equal(200);
    expect(first.body.listenKey).to.match(/^[A-Za-z0-9]{64}$/);
    expect(await listenKeyOf(key)).to.equal(first.body.listenKey);
    expect(await listenKeyOf(await newKey())).to.not.equal(first.body.listenKey);
    const record = keys.binanceListenKey(first.body.listenKey);
    expect(await redis.pttl(record)).to.be.within(3_500_000, 3_600_000);

    await redis.pexpire(record, 60_000);
    const kept = await call<{ listenKey: string }>(key, 'PUT', '/v1/listenKey');
    expect([kept.status, kept.body.listenKey]).to.deep.equal([200, first.body.listenKey]);
    expect(await redis.pttl(record)).to.be.within(3_500_000, 3_600_000);

    const none = await call<{ code: number }>(await newKey(), 'PUT', '/v1/listenKey');
    expect([none.status, none.body.code]).to.deep.equal([400, -1125]);
    const anonymous = await call<{ code: number }>(null, 'POST', '/v1/listenKey');
    expect([anonymous.status, anonymous.body.code]).to.deep.equal([401, -2014]);
  });

  it('refuses an unknown listenKey at the upgrade with HTTP 400 and -1125, no socket', async () => {
    for (const path of [`/ws/${'A'.repeat(64)}`, '/ws/nope', `/private/ws?listenKey=${'b'.repeat(64)}`, '/stream?streams=x']) {
      const answer = await refused(path);
      expect([answer.status, answer.body.code], path).to.deep.equal([400, -1125]);
    }
  });

  it('streams a market buy and its close: ORDER_TRADE_UPDATE of each fill, ACCOUNT_UPDATE of the wallet and the position', async () => {
    const key = await newKey();
    await call(key, 'POST', '/v1/leverage', { symbol: 'BTCUSDT', leverage: '10' }, true);
    const stream = connect(`/ws/${await listenKeyOf(key)}`);
    const combined = connect(`/stream?streams=${await listenKeyOf(key)}`);
    await heard(key.accountId);

    const buy = await order(key, { side: 'BUY', quantity: '0.01', newClientOrderId: 'uds-open' });
    expect(buy.status, JSON.stringify(buy.body)).to.equal(200);
    const filled = await stream.next((e) => e.e === 'ORDER_TRADE_UPDATE');
    expect(filled.o).to.deep.include({ s: 'BTCUSDT', c: 'uds-open', S: 'BUY', o: 'MARKET', x: 'TRADE', X: 'FILLED', i: buy.body.orderId });
    expect(filled.o).to.deep.include({ q: '0.01', z: '0.01', l: '0.01', ap: '65000', L: '65000', N: 'USDT', ps: 'BOTH', R: false });
    expect(Number(filled.o?.n)).to.be.closeTo(0.3575, 1e-6);
    const opened = await stream.next((e) => e.e === 'ACCOUNT_UPDATE');
    expect(opened.a?.m).to.equal('ORDER');
    expect(opened.a?.B).to.deep.equal([{ a: 'USDT', wb: '10000', cw: '0', bc: '0' }]);
    expect(opened.a?.P).to.have.length(1);
    expect(opened.a?.P[0]).to.deep.include({ s: 'BTCUSDT', pa: '0.01', ep: '65000', mt: 'isolated', ps: 'BOTH', iw: '65' });

    await prices.set({ BTCUSDT: 66000 });
    const sell = await order(key, { side: 'SELL', quantity: '0.01', reduceOnly: 'true', newClientOrderId: 'uds-close' });
    const closed = await stream.next((e) => e.e === 'ORDER_TRADE_UPDATE' && e.o?.S === 'SELL');
    expect(closed.o).to.deep.include({ c: 'uds-close', o: 'MARKET', X: 'FILLED', i: sell.body.orderId, ap: '66000', R: true, rp: '10' });
    expect(Number(closed.o?.n)).to.be.closeTo(0.363, 1e-6);
    const flat = await stream.next((e) => e.e === 'ACCOUNT_UPDATE', stream.events.indexOf(closed));
    expect(flat.a?.P[0]).to.deep.include({ s: 'BTCUSDT', pa: '0', iw: '0' });
    expect(Number(flat.a?.B[0].wb)).to.be.closeTo(10000 + 10 - 0.3575 - 0.363, 0.01);

    // the combined form carries the same events, each as {stream, data}
    const wrapped = await combined.next((e) => {
      const data = e.data as Event | undefined;
      return e.stream !== undefined && data?.e === 'ACCOUNT_UPDATE' && data.a?.P[0].pa === '0';
    });
    expect(wrapped.stream).to.be.a('string').with.length(64);
  });

  it('streams a resting LIMIT and an opening STOP_MARKET as NEW when placed, and the LIMIT as CANCELED when cancelled', async () => {
    const key = await newKey();
    const stream = connect(`/ws/${await listenKeyOf(key)}`);
    await heard(key.accountId);
    const limit = await order(key, { side: 'BUY', type: 'LIMIT', quantity: '0.01', price: '60000', newClientOrderId: 'uds-limit' });
    expect(limit.status, JSON.stringify(limit.body)).to.equal(200);
    const placed = await stream.next((e) => e.e === 'ORDER_TRADE_UPDATE' && e.o?.i === limit.body.orderId);
    expect(placed.o).to.deep.include({
      s: 'BTCUSDT',
      c: 'uds-limit',
      S: 'BUY',
      o: 'LIMIT',
      x: 'NEW',
      X: 'NEW',
      p: '60000',
      q: '0.01',
      z: '0',
    });
    const stop = await order(key, { side: 'BUY', type: 'STOP_MARKET', quantity: '0.01', stopPrice: '67000', newClientOrderId: 'uds-stop' });
    const stopNew = await stream.next((e) => e.e === 'ORDER_TRADE_UPDATE' && e.o?.i === stop.body.orderId);
    expect(stopNew.o).to.deep.include({ s: 'BTCUSDT', c: 'uds-stop', o: 'STOP_MARKET', x: 'NEW', X: 'NEW', sp: '67000' });

    const from = stream.events.length;
    await call(key, 'DELETE', '/v1/order', { symbol: 'BTCUSDT', orderId: limit.body.orderId }, true);
    const cancelled = await stream.next((e) => e.e === 'ORDER_TRADE_UPDATE' && e.o?.x === 'CANCELED', from);
    expect(cancelled.o).to.deep.include({ s: 'BTCUSDT', c: 'uds-limit', i: limit.body.orderId, X: 'CANCELED', o: 'LIMIT' });
    // a placement moves no balance nor position: no ACCOUNT_UPDATE
    expect(stream.events.filter((e) => e.e === 'ACCOUNT_UPDATE')).to.deep.equal([]);
  });

  it('DELETE closes the listenKey: its sockets get listenKeyExpired and close; it is refused afterwards', async () => {
    const key = await newKey();
    const listenKey = await listenKeyOf(key);
    const stream = connect(`/private/ws/${listenKey}`);
    await heard(key.accountId);
    const deleted = await call(key, 'DELETE', '/v1/listenKey');
    expect([deleted.status, deleted.body]).to.deep.equal([200, {}]);
    const expired = await stream.next((e) => e.e === 'listenKeyExpired');
    expect(expired).to.include({ listenKey });
    expect((await stream.closed).code).to.equal(1000);
    expect((await refused(`/ws/${listenKey}`)).body.code).to.equal(-1125);
    expect(await listenKeyOf(key)).to.not.equal(listenKey);
  });

  it('a listenKey that expires (no keepalive) ends its socket with listenKeyExpired', async () => {
    const key = await newKey();
    const listenKey = await listenKeyOf(key);
    await redis.pexpire(keys.binanceListenKey(listenKey), 1_500);
    const stream = connect(`/ws/${listenKey}`);
    const expired = await stream.next((e) => e.e === 'listenKeyExpired');
    expect(expired).to.include({ listenKey });
    expect((await stream.closed).code).to.equal(1000);
  });

  it("one account never sees another's events, nor a book's key the main book's", async () => {
    const alice = await newKey();
    const bob = await newKey();
    const aliceBook = await newKey({ email: (await accounts.accounts.get(alice.accountId))!.email, book: 'alpha' });
    const [aliceStream, bobStream, bookStream] = [
      connect(`/ws/${await listenKeyOf(alice)}`),
      connect(`/ws/${await listenKeyOf(bob)}`),
      connect(`/ws/${await listenKeyOf(aliceBook)}`),
    ];
    await Promise.all([heard(alice.accountId), heard(bob.accountId)]);
    const bobs = await order(bob, { side: 'BUY', quantity: '0.01' });
    await bobStream.next((e) => e.e === 'ACCOUNT_UPDATE');
    const alices = await order(alice, { side: 'SELL', quantity: '0.02' });
    await aliceStream.next((e) => e.e === 'ACCOUNT_UPDATE');
    const books = await order(aliceBook, { side: 'BUY', quantity: '0.03' });
    await bookStream.next((e) => e.e === 'ACCOUNT_UPDATE');
    // the pod hears the channels in the order published, and sends a book's events in order: the main book's next
    // event comes after anything of the book's that would have leaked
    const more = await order(alice, { symbol: 'ETHUSDT', side: 'BUY', quantity: '0.1' });
    await aliceStream.next((e) => e.e === 'ACCOUNT_UPDATE' && e.a?.P[0].s === 'ETHUSDT');
    const ids = (stream: UserSocket) => stream.events.filter((e) => e.e === 'ORDER_TRADE_UPDATE').map((e) => e.o?.i);
    expect(ids(bobStream)).to.deep.equal([bobs.body.orderId]);
    expect(ids(aliceStream)).to.deep.equal([alices.body.orderId, more.body.orderId]);
    expect(ids(bookStream)).to.deep.equal([books.body.orderId]);
    expect(bobStream.events.map((e) => e.e)).to.deep.equal(['ORDER_TRADE_UPDATE', 'ACCOUNT_UPDATE']);
  });

  it('ccxt pro: watchOrders, watchBalance and watchPositions receive a market buy and its close', async () => {
    const key = await newKey();
    // positions from the stream alone (no REST snapshot first: its answer would be the first watchPositions gives)
    // and the longest recvWindow: on a loaded machine a signed call can be slower than the default 5 s
    const options = { watchPositions: { fetchPositionsSnapshot: false }, recvWindow: 60_000 };
    const exchange = new ccxt.pro.binanceusdm({ apiKey: key.apiKey, secret: key.secret, options });
    const urls = exchange.urls.api as Record<string, unknown>;
    Object.assign(urls, {
      ...binanceHosts(api.url),
      ws: { ...(urls.ws as Record<string, unknown>), future: `${api.url.replace(/^http/, 'ws')}/ws` },
    });
    try {
      // ccxt opens a ws:// (not wss://) socket only through a node:http agent it is told to load
      await exchange.loadHttpProxyAgent();
      await exchange.loadMarkets();
      await exchange.setLeverage(10, 'BTC/USDT:USDT');
      const orders = exchange.watchOrders('BTC/USDT:USDT');
      const balance = exchange.watchBalance();
      const positions = exchange.watchPositions(['BTC/USDT:USDT']);
      await heard(key.accountId);
      // fresh again: the setup may have outlasted the price's freshness on a loaded machine
      await prices.set({ BTCUSDT: 65000 });
      const buy = await exchange.createOrder('BTC/USDT:USDT', 'market', 'buy', 0.01, undefined, { newClientOrderId: 'ccxt-open' });
      const [watched] = await within(orders, 'watchOrders');
      expect(watched).to.deep.include({
        id: buy.id,
        clientOrderId: 'ccxt-open',
        status: 'closed',
        side: 'buy',
        filled: 0.01,
        average: 65000,
      });
      expect((await within(balance, 'watchBalance')).USDT).to.deep.include({ total: 10000 });
      const [long] = await within(positions, 'watchPositions');
      expect(long).to.deep.include({ symbol: 'BTC/USDT:USDT', contracts: 0.01, side: 'long', entryPrice: 65000, marginMode: 'isolated' });

      const closing = exchange.watchOrders('BTC/USDT:USDT');
      const after = exchange.watchPositions(['BTC/USDT:USDT']);
      await prices.set({ BTCUSDT: 65000 });
      const sell = await exchange.createOrder('BTC/USDT:USDT', 'market', 'sell', 0.01, undefined, { reduceOnly: true });
      const [closed] = await within(closing, 'watchOrders of the close');
      expect(closed).to.deep.include({ id: sell.id, status: 'closed', side: 'sell', filled: 0.01, reduceOnly: true });
      expect((await within(after, 'watchPositions of the close'))[0]).to.deep.include({ contracts: 0 });
    } finally {
      await exchange.close();
    }
  });
});
