// The Binance USDⓈ-M dialect's batch orders, Modify Order and trading statistics, driven by ccxt's binanceusdm and by raw
// signed calls (issue #42).
import { expect } from 'chai';
import { createHmac } from 'node:crypto';
import ccxt from 'ccxt';
import { configWith } from '../../shared/config.js';
import { DerivativesStore } from '../../shared/derivatives/derivatives-store.js';
import { createAccountServices, type AccountServices } from '../../shared/paper/accounts/account-services.js';
import { getJson } from '../helpers/app.js';
import { binanceHosts, newSecretKey, type SecretKey } from '../helpers/binance.js';
import { useTradingFixture } from '../helpers/trading.js';

type Body = Record<string, unknown> & { code?: number };

const BTC = 'BTC/USDT:USDT';

describe('Binance USDⓈ-M dialect: batch orders, Modify Order, /futures/data', function () {
  this.timeout(30_000);
  const stack = useTradingFixture({ BTCUSDT: 65000, ETHUSDT: 3500 });
  let accounts: AccountServices;
  before(() => {
    accounts = createAccountServices({ redis: stack.redis, secretsKey: configWith().webhookSecretsKey });
  });

  const newKey = (): Promise<SecretKey> => newSecretKey(accounts);

  const client = (key?: SecretKey) => {
    const exchange = new ccxt.binanceusdm(key ?? {});
    Object.assign(exchange.urls.api as Record<string, string>, binanceHosts(stack.api.url));
    return exchange;
  };

  const ready = async (key: SecretKey) => {
    const exchange = client(key);
    await exchange.loadMarkets();
    await exchange.setLeverage(10, BTC);
    return exchange;
  };

  /** A signed call as Binance documents it: the query string signed, the signature appended. */
  const signed = (key: SecretKey, method: string, path: string, params: Record<string, string>) => {
    const query = new URLSearchParams({ ...params, timestamp: String(Date.now()) }).toString();
    const signature = createHmac('sha256', key.secret).update(query).digest('hex');
    return getJson<Body | Body[]>(`${stack.api.url}/fapi${path}?${query}&signature=${signature}`, {
      method,
      headers: { 'X-MBX-APIKEY': key.apiKey },
    });
  };
  const raised = (promise: Promise<unknown>): Promise<unknown> =>
    promise.then(
      () => undefined,
      (error: unknown) => error,
    );

  it('ccxt createOrders: each order answered in its place, a refused one with its own code; a retry answers the first orders again', async () => {
    const key = await newKey();
    const exchange = await ready(key);
    const batch = [
      { symbol: BTC, type: 'limit', side: 'buy', amount: 0.01, price: 60000, params: { newClientOrderId: 'batch-a' } },
      // a limit buy above the market would fill at once: refused alone, the others stand
      { symbol: BTC, type: 'limit', side: 'buy', amount: 0.01, price: 70000, params: { newClientOrderId: 'batch-b' } },
      { symbol: 'ETH/USDT:USDT', type: 'market', side: 'sell', amount: 0.1, params: { newClientOrderId: 'batch-c' } },
    ];
    const placed = await exchange.createOrders(batch);
    expect(placed.map((o) => [o.clientOrderId, o.status])).to.deep.equal([
      ['batch-a', 'open'],
      [undefined, 'rejected'],
      ['batch-c', 'closed'],
    ]);
    expect((placed[1].info as Body).code).to.equal(-2010);
    const again = await exchange.createOrders(batch);
    expect([again[0].id, again[2].id]).to.deep.equal([placed[0].id, placed[2].id]);
    expect((await exchange.fetchOpenOrders(BTC)).map((o) => o.id)).to.deep.equal([placed[0].id]);
    expect((await exchange.fetchPositions(['ETH/USDT:USDT'])).map((p) => [p.side, p.contracts])).to.deep.equal([['short', 0.1]]);

    // six orders are past Binance's five; broken JSON is refused whole
    const six = await signed(key, 'POST', '/v1/batchOrders', {
      batchOrders: JSON.stringify(Array.from({ length: 6 }, () => ({ symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.01' }))),
    });
    expect([six.status, (six.body as Body).code]).to.deep.equal([400, -1130]);
    const broken = await signed(key, 'POST', '/v1/batchOrders', { batchOrders: '[{"symbol":' });
    expect([broken.status, (broken.body as Body).code]).to.deep.equal([400, -1130]);
    const none = await signed(key, 'POST', '/v1/batchOrders', {});
    expect([none.status, (none.body as Body).code]).to.deep.equal([400, -1102]);
  });

  it('DELETE batchOrders by orderIdList (as ccxt cancelOrders sends it) and origClientOrderIdList: each in its place, unknown -2011/-2013', async () => {
    const key = await newKey();
    const exchange = await ready(key);
    const a = await exchange.createOrder(BTC, 'limit', 'buy', 0.01, 60000, { newClientOrderId: 'del-a' });
    const b = await exchange.createOrder(BTC, 'limit', 'buy', 0.01, 61000, { newClientOrderId: 'del-b' });
    const c = await exchange.createOrder(BTC, 'limit', 'sell', 0.01, 69000, { newClientOrderId: 'del-c' });
    // ccxt lists the cancelled ones (a refusal names no symbol); the raw answer keeps each in its place
    const cancelled = await exchange.cancelOrders([a.id!], BTC);
    expect(cancelled.map((o) => [o.id, o.status])).to.deep.equal([[a.id, 'canceled']]);
    const unquoted = await signed(key, 'DELETE', '/v1/batchOrders', { symbol: 'BTCUSDT', orderidlist: `[nope,${a.id}]` });
    expect((unquoted.body as Body[]).map((r) => r.code)).to.deep.equal([-2011, -2011]);
    const byClient = await signed(key, 'DELETE', '/v1/batchOrders', {
      symbol: 'BTCUSDT',
      origClientOrderIdList: JSON.stringify(['del-b', 'del-c', 'del-none']),
    });
    const rows = byClient.body as Body[];
    expect(rows.map((r) => r.orderId ?? r.code)).to.deep.equal([b.id, c.id, -2013]);
    expect(rows.slice(0, 2).map((r) => r.status)).to.deep.equal(['CANCELED', 'CANCELED']);
    expect(await exchange.fetchOpenOrders(BTC)).to.deep.equal([]);
    const both = await signed(key, 'DELETE', '/v1/batchOrders', { symbol: 'BTCUSDT', orderIdList: '[x]', origClientOrderIdList: '["y"]' });
    expect([both.status, (both.body as Body).code]).to.deep.equal([400, -1130]);
  });

  it("ccxt editOrder: a resting LIMIT gets a new price and quantity in place (same id, the engine's order changed); -5027, -5025, -2011", async () => {
    const key = await newKey();
    const exchange = await ready(key);
    const limit = await exchange.createOrder(BTC, 'limit', 'buy', 0.01, 60000, { newClientOrderId: 'edit-1' });
    const edited = await exchange.editOrder(limit.id!, BTC, 'limit', 'buy', 0.02, 61000);
    expect(edited).to.deep.include({ id: limit.id, status: 'open', price: 61000, amount: 0.02, clientOrderId: 'edit-1' });
    const native = await getJson<{ orders: { order_id: string; limit_price: number; margin_usd: number; leverage: number }[] }>(
      `${stack.api.url}/api/bot/v1/orders`,
      { headers: { 'x-api-key': key.apiKey } },
    );
    expect(native.body.orders.map((o) => [o.order_id, o.limit_price, o.margin_usd, o.leverage])).to.deep.equal([
      [limit.id, 61000, 122, 10],
    ]);
    expect((await exchange.fetchOrder(limit.id!, BTC)).price).to.equal(61000);

    const same = await raised(exchange.editOrder(limit.id!, BTC, 'limit', 'buy', 0.02, 61000));
    expect(String(same)).to.include('-5027');
    const wrongSide = await signed(key, 'PUT', '/v1/order', {
      symbol: 'BTCUSDT',
      orderId: limit.id!,
      side: 'SELL',
      quantity: '0.02',
      price: '62000',
    });
    expect([wrongSide.status, (wrongSide.body as Body).code]).to.deep.equal([400, -1130]);
    const marketable = await raised(exchange.editOrder(limit.id!, BTC, 'limit', 'buy', 0.02, 66000));
    expect(String(marketable)).to.include('-2010');

    const stop = await exchange.createOrder(BTC, 'STOP_MARKET', 'buy', 0.01, undefined, { stopPrice: 67000 });
    const notLimit = await signed(key, 'PUT', '/v1/order', {
      symbol: 'BTCUSDT',
      orderId: stop.id!,
      side: 'BUY',
      quantity: '0.01',
      price: '67500',
    });
    expect([notLimit.status, (notLimit.body as Body).code]).to.deep.equal([400, -5025]);

    await exchange.cancelOrder(limit.id!, BTC);
    const done = await signed(key, 'PUT', '/v1/order', {
      symbol: 'BTCUSDT',
      origClientOrderId: 'edit-1',
      side: 'BUY',
      quantity: '0.02',
      price: '60500',
    });
    expect([done.status, (done.body as Body).code]).to.deep.equal([400, -2011]);
    const unknown = await signed(key, 'PUT', '/v1/order', {
      symbol: 'BTCUSDT',
      orderId: 'nope',
      side: 'BUY',
      quantity: '0.02',
      price: '60500',
    });
    expect([unknown.status, (unknown.body as Body).code]).to.deep.equal([400, -2013]);
  });

  it('PUT batchOrders modifies each LIMIT as PUT order does, each answered in its place; more than 5 refused whole', async () => {
    const key = await newKey();
    const exchange = await ready(key);
    const a = await exchange.createOrder(BTC, 'limit', 'buy', 0.01, 60000, { newClientOrderId: 'bm-a' });
    const b = await exchange.createOrder(BTC, 'limit', 'buy', 0.01, 61000, { newClientOrderId: 'bm-b' });
    const entry = (ref: Record<string, string>, quantity: string, price: string) => ({
      symbol: 'BTCUSDT',
      side: 'BUY',
      quantity,
      price,
      ...ref,
    });
    const modified = await signed(key, 'PUT', '/v1/batchOrders', {
      batchOrders: JSON.stringify([
        entry({ orderId: a.id! }, '0.02', '60500'),
        entry({ orderId: 'nope' }, '0.01', '60000'),
        entry({ origClientOrderId: 'bm-b' }, '0.01', '61000'),
        entry({ origClientOrderId: 'bm-b' }, '0.03', '59000'),
      ]),
    });
    expect(modified.status).to.equal(200);
    const rows = modified.body as Body[];
    expect(rows.map((r) => r.code ?? [r.orderId, r.symbol, r.price, r.origQty, r.status])).to.deep.equal([
      [a.id, 'BTCUSDT', '60500', '0.02', 'NEW'],
      -2013,
      -5027,
      [b.id, 'BTCUSDT', '59000', '0.03', 'NEW'],
    ]);
    const open = await exchange.fetchOpenOrders(BTC);
    expect(open.map((o) => [o.id, o.price, o.amount])).to.deep.equal([
      [a.id, 60500, 0.02],
      [b.id, 59000, 0.03],
    ]);
    const six = await signed(key, 'PUT', '/v1/batchOrders', {
      batchOrders: JSON.stringify(Array.from({ length: 6 }, () => entry({ orderId: a.id! }, '0.01', '60000'))),
    });
    expect([six.status, (six.body as Body).code]).to.deep.equal([400, -1130]);
  });

  it('an order past the opposite position flips it through zero: one FILLED order; reduceOnly stops at zero; a refused rest EXPIRED', async () => {
    const key = await newKey();
    const exchange = await ready(key);
    await exchange.createOrder(BTC, 'market', 'buy', 0.01);
    await stack.prices.set({ BTCUSDT: 66000 });
    const flip = await exchange.createOrder(BTC, 'market', 'sell', 0.03, undefined, { newClientOrderId: 'flip-1' });
    expect([flip.status, flip.filled, flip.amount, flip.average, flip.clientOrderId]).to.deep.equal([
      'closed',
      0.03,
      0.03,
      66000,
      'flip-1',
    ]);
    expect((await exchange.fetchPositions([BTC])).map((p) => [p.side, p.contracts])).to.deep.equal([['short', 0.02]]);
    const again = await exchange.createOrder(BTC, 'market', 'sell', 0.03, undefined, { newClientOrderId: 'flip-1' });
    expect(again.id).to.equal(flip.id);

    const stop = await exchange.createOrder(BTC, 'market', 'buy', 0.05, undefined, { reduceOnly: true });
    expect([stop.status, stop.filled]).to.deep.equal(['closed', 0.02]);
    expect(await exchange.fetchPositions([BTC])).to.deep.equal([]);

    // the remainder's margin is below the engine's 1 USDT: the close stands, the order answers what filled
    await exchange.createOrder(BTC, 'market', 'buy', 0.01);
    const short = await signed(key, 'POST', '/v1/order', { symbol: 'BTCUSDT', side: 'SELL', type: 'MARKET', quantity: '0.0101' });
    expect(short.status).to.equal(200);
    expect(short.body).to.deep.include({ status: 'EXPIRED', origQty: '0.0101', executedQty: '0.01', avgPrice: '66000' });
    expect(await exchange.fetchPositions([BTC])).to.deep.equal([]);
  });

  it('a resting LIMIT names the pair (BTCUSDT) in its answer, its query, the open orders and its cancel', async () => {
    const key = await newKey();
    await ready(key);
    const order = { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.01', price: '60000' };
    const placed = (await signed(key, 'POST', '/v1/order', order)).body as Body;
    expect(placed).to.deep.include({ symbol: 'BTCUSDT', status: 'NEW', type: 'LIMIT' });
    const orderId = String(placed.orderId);
    const queried = (await signed(key, 'GET', '/v1/order', { symbol: 'BTCUSDT', orderId })).body as Body;
    const open = (await signed(key, 'GET', '/v1/openOrders', { symbol: 'BTCUSDT' })).body as Body[];
    const cancelled = (await signed(key, 'DELETE', '/v1/order', { symbol: 'BTCUSDT', orderId })).body as Body;
    expect([queried.symbol, open.map((o) => o.symbol), cancelled.symbol, cancelled.status]).to.deep.equal([
      'BTCUSDT',
      ['BTCUSDT'],
      'BTCUSDT',
      'CANCELED',
    ]);
  });

  it('userTrades lists each leg of an increased position: the open and the add, each its own price, qty and fee', async () => {
    const key = await newKey();
    const exchange = await ready(key);
    const open = await exchange.createOrder(BTC, 'market', 'buy', 0.01);
    await stack.prices.set({ BTCUSDT: 66000 });
    const add = await exchange.createOrder(BTC, 'market', 'buy', 0.02);
    const trades = await exchange.fetchMyTrades(BTC);
    expect(trades.map((t) => [t.order, t.side, t.price, t.amount])).to.deep.equal([
      [open.id, 'buy', 65000, 0.01],
      [add.id, 'buy', 66000, 0.02],
    ]);
    expect(trades[0].fee?.cost).to.be.closeTo(0.3575, 1e-9);
    expect(trades[1].fee?.cost).to.be.closeTo(0.726, 1e-9);
    const [position] = await exchange.fetchPositions([BTC]);
    expect(position.entryPrice).to.be.closeTo((0.01 * 65000 + 0.02 * 66000) / 0.03, 1e-6);
    // a close of half: the open legs of the closed part and of the rest each add up to their part
    await exchange.createOrder(BTC, 'market', 'sell', 0.015, undefined, { reduceOnly: true });
    const after = await exchange.fetchMyTrades(BTC);
    const bought = after.filter((t) => t.side === 'buy').reduce((sum, t) => sum + (t.amount ?? 0), 0);
    expect(bought).to.be.closeTo(0.03, 1e-9);
    expect(after.filter((t) => t.side === 'sell').map((t) => t.amount)).to.deep.equal([0.015]);
  });

  it("ccxt fetchOpenInterestHistory from the collected history, at period boundaries; fetchLongShortRatioHistory from Binance's global ratio", async () => {
    const store = new DerivativesStore(stack.redis);
    const period = 5 * 60_000;
    const boundary = Math.floor(Date.now() / period) * period;
    // samples a minute apart: the last one at or before each boundary is that boundary's value
    const samples: [number, number][] = [
      [boundary - 2 * period - 60_000, 1.0e9],
      [boundary - period - 60_000, 1.1e9],
      [boundary - period, 1.2e9],
      [boundary - 60_000, 1.3e9],
    ];
    for (const [ts, oiUsd] of samples)
      await store.saveOpenInterest({
        updatedAt: ts,
        count: 1,
        totalUsd: oiUsd,
        pairs: [{ symbol: 'BTC', pair: 'BTCUSDT', oiUsd, exchanges: { binance: oiUsd } }],
      });
    const exchange = client();
    await exchange.loadMarkets();
    const history = await exchange.fetchOpenInterestHistory(BTC, '5m');
    expect(history.map((h) => [h.timestamp, h.openInterestValue])).to.deep.equal([
      [boundary - 2 * period, 1.0e9],
      [boundary - period, 1.2e9],
      [boundary, 1.3e9],
    ]);
    expect(history[2].openInterestAmount).to.be.closeTo(1.3e9 / 65000, 1e-6);
    const last = await getJson<Body[]>(`${stack.api.url}/futures/data/openInterestHist?symbol=BTCUSDT&period=5m&limit=1`);
    expect(last.body).to.deep.equal([
      { symbol: 'BTCUSDT', sumOpenInterest: '20000', sumOpenInterestValue: '1300000000', timestamp: boundary },
    ]);

    const ts = boundary - period;
    const view = { longPct: 66.22, shortPct: 33.78, ratio: 1.9603, ts };
    await store.saveLongShort({
      updatedAt: ts,
      count: 1,
      pairs: [{ symbol: 'BTC', pair: 'BTCUSDT', longPct: 62, shortPct: 38, ratio: 1.63, ts, exchanges: { binance: view } }],
    });
    const ratios = await exchange.fetchLongShortRatioHistory(BTC, '5m');
    expect(ratios.map((r) => [r.timestamp, r.longShortRatio])).to.deep.equal([[ts, 1.9603]]);
    const raw = await getJson<Body[]>(`${stack.api.url}/futures/data/globalLongShortAccountRatio?symbol=BTCUSDT&period=1h`);
    expect(raw.body).to.deep.equal([
      { symbol: 'BTCUSDT', longShortRatio: '1.9603', longAccount: '0.6622', shortAccount: '0.3378', timestamp: ts },
    ]);
    const eth = await getJson<Body[]>(`${stack.api.url}/futures/data/globalLongShortAccountRatio?symbol=ETHUSDT&period=5m`);
    expect(eth.body).to.deep.equal([]);
  });

  it('refuses the statistics it does not collect (top traders, taker volumes) and bad input with Binance codes, never a 5xx', async () => {
    const data = (query: string) => getJson<Body>(`${stack.api.url}/futures/data/${query}`);
    for (const path of ['topLongShortAccountRatio', 'topLongShortPositionRatio', 'takerlongshortRatio']) {
      const answer = await data(`${path}?symbol=BTCUSDT&period=5m`);
      expect([answer.status, answer.body.code], path).to.deep.equal([400, -1000]);
      expect(answer.body.msg, path).to.include('not collected');
    }
    const cases: [string, number][] = [
      ['openInterestHist?symbol=BTCUSDT&period=1m', -1120],
      ['openInterestHist?symbol=BTCUSDT', -1102],
      ['openInterestHist?symbol=BTCUSDT&period=5m&limit=501', -1130],
      ['openInterestHist?symbol=NOPEUSDT&period=5m', -1121],
      ['globalLongShortAccountRatio?symbol=BTCUSDT&period=5m&startTime=abc', -1130],
    ];
    for (const [query, code] of cases) {
      const answer = await data(query);
      expect([answer.status, answer.body.code], query).to.deep.equal([400, code]);
    }
  });
});
