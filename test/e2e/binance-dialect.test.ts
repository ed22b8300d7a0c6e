// The Binance USDⓈ-M dialect driven by ccxt's binanceusdm class, unchanged but for its hosts, and by raw signed calls.
import { expect } from 'chai';
import { createHmac } from 'node:crypto';
import ccxt from 'ccxt';
import { configWith } from '../../shared/config.js';
import { FundingStore } from '../../shared/paper/funding/funding-store.js';
import { createAccountServices, type AccountServices } from '../../shared/paper/accounts/account-services.js';
import { parseCliArgs } from '../../ops/cli/cli-args.js';
import { runCommand } from '../../ops/cli/cli-commands.js';
import { getJson } from '../helpers/app.js';
import { minuteSeries, seedCandles } from '../helpers/market-seed.js';
import { binanceHosts, newSecretKey, type SecretKey } from '../helpers/binance.js';
import { useTradingFixture } from '../helpers/trading.js';

describe('Binance USDⓈ-M dialect (/fapi)', function () {
  this.timeout(30_000);
  const stack = useTradingFixture({ BTCUSDT: 65000, ETHUSDT: 3500 });
  let accounts: AccountServices;
  before(() => {
    accounts = createAccountServices({ redis: stack.redis, secretsKey: configWith().webhookSecretsKey });
  });

  const newKey = (secret = true): Promise<SecretKey> => newSecretKey(accounts, secret);

  /** ccxt's binanceusdm with every USDⓈ-M host (and the spot API's, for the coins list) pointed at the test API. */
  const client = (key?: SecretKey) => {
    const exchange = new ccxt.binanceusdm(key ?? {});
    Object.assign(exchange.urls.api as Record<string, string>, binanceHosts(stack.api.url));
    return exchange;
  };

  /** A signed raw call the way Binance documents it: HMAC-SHA256 of the query string, the signature appended. */
  const signedGet = (key: SecretKey, path: string, params: Record<string, string>, secret = key.secret, method = 'GET') => {
    const query = new URLSearchParams(params).toString();
    const signature = createHmac('sha256', secret).update(query).digest('hex');
    return getJson<{ code?: number; msg?: string }>(`${stack.api.url}/fapi${path}?${query}&signature=${signature}`, {
      method,
      headers: { 'X-MBX-APIKEY': key.apiKey },
    });
  };

  it('keys create --secret gives a 64-character secret, stored sealed and never listed', async () => {
    const created = await accounts.service.createKey({ email: `sealed-${Date.now()}@example.org`, secret: true });
    expect(created.secret).to.match(/^[0-9A-Za-z]{64}$/);
    const record = await stack.redis.hgetall(`acct:{${created.account.id}}:key:${created.key.id}`);
    expect(record.hmac).to.be.a('string').and.not.include(created.secret);
    expect(JSON.stringify(await accounts.service.listKeys(created.account.email))).to.not.include(record.hmac);
    expect(await accounts.service.hmacSecret(created.account.id, created.key.id)).to.equal(created.secret);
  });

  it('the CLI: keys create --secret prints the secret once on a line of its own; without it there is none', async () => {
    const email = `cli-${Date.now()}@example.org`;
    const run = (argv: string[]) =>
      runCommand(parseCliArgs(argv) as Parameters<typeof runCommand>[0], accounts.service, Date.now, () =>
        Promise.reject(new Error('unused')),
      );
    const withSecret = await run(['keys', 'create', '--email', email, '--secret']);
    expect(withSecret).to.match(/^secret: [0-9A-Za-z]{64}$/m);
    expect(await run(['keys', 'create', '--email', email])).to.not.match(/secret:/);
    expect(() => parseCliArgs(['keys', 'list', '--email', email, '--secret'])).to.throw(/takes no --secret/);
  });

  it('answers ping and time, and reports the minute weight in X-MBX-USED-WEIGHT-1M', async () => {
    const ping = await getJson(`${stack.api.url}/fapi/v1/ping`);
    expect(ping.status).to.equal(200);
    expect(ping.body).to.deep.equal({});
    expect(Number(ping.headers.get('x-mbx-used-weight-1m'))).to.be.at.least(1);
    const exchange = client();
    expect(Math.abs((await exchange.fetchTime())! - Date.now())).to.be.below(5_000);
  });

  it("meters X-MBX-APIKEY calls on the key's plan budget: past it 429 with -1003, the weight header counting", async () => {
    const created = await accounts.service.createKey({ email: `free-${Date.now()}@example.org`, secret: true });
    const headers = { 'X-MBX-APIKEY': created.apiKey };
    const budget = created.account.plan.plan === 'free' ? 120 : 0;
    expect(budget).to.equal(120);
    let last = await getJson<{ code?: number }>(`${stack.api.url}/fapi/v1/ping`, { headers });
    expect(last.headers.get('x-mbx-used-weight-1m')).to.equal('1');
    for (let i = 1; i < budget; i += 1) last = await getJson(`${stack.api.url}/fapi/v1/ping`, { headers });
    expect([last.status, last.headers.get('x-mbx-used-weight-1m')]).to.deep.equal([200, String(budget)]);
    const over = await getJson<{ code: number }>(`${stack.api.url}/fapi/v1/ping`, { headers });
    expect([over.status, over.body.code]).to.deep.equal([429, -1003]);
    expect(over.headers.get('retry-after')).to.match(/^\d+$/);
  });

  it('signs like Binance: a good signature passes, a stale timestamp is -1021, a bad signature -1022, an unknown key -2015, none -2014', async () => {
    const key = await newKey();
    const now = String(Date.now());
    const ok = await signedGet(key, '/v2/balance', { timestamp: now });
    expect(ok.status).to.equal(200);
    const stale = await signedGet(key, '/v2/balance', { timestamp: String(Date.now() - 10_000), recvWindow: '5000' });
    expect([stale.status, stale.body.code]).to.deep.equal([400, -1021]);
    const ahead = await signedGet(key, '/v2/balance', { timestamp: String(Date.now() + 5_000) });
    expect([ahead.status, ahead.body.code]).to.deep.equal([400, -1021]);
    const forged = await signedGet(key, '/v2/balance', { timestamp: now }, 'x'.repeat(64));
    expect([forged.status, forged.body.code]).to.deep.equal([400, -1022]);
    const unknown = await signedGet({ apiKey: `${key.apiKey.slice(0, -4)}AAAA`, secret: key.secret }, '/v2/balance', { timestamp: now });
    expect([unknown.status, unknown.body.code]).to.deep.equal([401, -2015]);
    const none = await getJson<{ code: number }>(`${stack.api.url}/fapi/v2/balance?timestamp=${now}&signature=00`);
    expect([none.status, none.body.code]).to.deep.equal([401, -2014]);
    const noSecret = await newKey(false);
    const refused = await signedGet(noSecret, '/v2/balance', { timestamp: now });
    expect([refused.status, refused.body.code]).to.deep.equal([401, -2015]);
  });

  it('ccxt: a wrong secret and an unknown key raise AuthenticationError, a stale clock InvalidNonce', async () => {
    const key = await newKey();
    // with a key, loadMarkets signs its first call already (the spot API's coin list)
    let raised: unknown;
    await client({ apiKey: key.apiKey, secret: 'y'.repeat(64) })
      .fetchBalance()
      .catch((error: unknown) => (raised = error));
    expect(raised).to.be.instanceOf(ccxt.AuthenticationError);
    raised = undefined;
    await client({ apiKey: `${key.apiKey.slice(0, -4)}AAAA`, secret: key.secret })
      .fetchBalance()
      .catch((error: unknown) => (raised = error));
    expect(raised).to.be.instanceOf(ccxt.AuthenticationError);
    const late = client(key);
    await late.loadMarkets();
    late.nonce = () => Date.now() - 60_000;
    raised = undefined;
    await late.fetchBalance().catch((error: unknown) => (raised = error));
    expect(raised).to.be.instanceOf(ccxt.InvalidNonce);
  });

  it('ccxt: loadMarkets, fetchTicker, fetchOHLCV and fetchFundingRate from our markets, in Binance shapes', async () => {
    await seedCandles(stack.redis, 'BTCUSDT', minuteSeries(10, 64900, [10, -5]));
    const hour = 3_600_000;
    const settled = Math.floor(Date.now() / (8 * hour)) * 8 * hour;
    await new FundingStore(stack.redis).record('BTCUSDT', settled, 0.0001, 64950);
    const exchange = client();
    const markets = await exchange.loadMarkets();
    const btc = markets['BTC/USDT:USDT']!;
    expect(btc).to.include({ id: 'BTCUSDT', type: 'swap', linear: true, settle: 'USDT', active: true });
    expect(btc.precision).to.include({ amount: 0.000001, price: 0.1 });
    expect(btc.limits.cost?.min).to.equal(5);
    const info = await getJson<{ symbols: { symbol: string; filters: { filterType: string }[]; underlyingType: string }[] }>(
      `${stack.api.url}/fapi/v1/exchangeInfo`,
    );
    const raw = info.body.symbols.find((s) => s.symbol === 'BTCUSDT')!;
    expect(raw.filters.map((f) => f.filterType)).to.include.members(['PRICE_FILTER', 'LOT_SIZE', 'MIN_NOTIONAL']);
    expect(raw.underlyingType).to.equal('COIN');

    const ticker = await exchange.fetchTicker('BTC/USDT:USDT');
    expect(ticker.last).to.equal(65000);
    const candles = await exchange.fetchOHLCV('BTC/USDT:USDT', '1m', undefined, 5);
    // the minute now open has no candle in this test (no live feed): the four closed ones before it
    expect(candles).to.have.length(4);
    expect(candles.every((c) => c[0]! % 60_000 === 0 && c[5] === 10)).to.equal(true);
    const funding = await exchange.fetchFundingRate('BTC/USDT:USDT');
    expect(funding.fundingRate).to.equal(0.0001);
    expect(funding.markPrice).to.equal(65000);

    const book = await getJson<{ symbol: string; bidPrice: string; askPrice: string }>(
      `${stack.api.url}/fapi/v1/ticker/bookTicker?symbol=BTCUSDT`,
    );
    expect(book.body).to.include({ symbol: 'BTCUSDT', bidPrice: '64999.95', askPrice: '65000.05' });
    const history = await getJson<{ fundingRate: string; fundingTime: number }[]>(`${stack.api.url}/fapi/v1/fundingRate?symbol=BTCUSDT`);
    expect(history.body).to.deep.equal([{ symbol: 'BTCUSDT', fundingTime: settled, fundingRate: '0.0001', markPrice: '64950' }]);
    const depth = await getJson<{ bids: string[][]; asks: string[][] }>(`${stack.api.url}/fapi/v1/depth?symbol=BTCUSDT&limit=5`);
    expect(depth.body.bids[0]).to.deep.equal(['64999.95', '0']);
    const all = await getJson<{ symbol: string }[]>(`${stack.api.url}/fapi/v1/ticker/price`);
    expect(all.body.map((t) => t.symbol)).to.include.members(['BTCUSDT', 'ETHUSDT']);
  });

  it('answers an unknown symbol -1121 and a bad interval -1120, never a 5xx', async () => {
    const unknown = await getJson<{ code: number }>(`${stack.api.url}/fapi/v1/ticker/24hr?symbol=NOPEUSDT`);
    expect([unknown.status, unknown.body.code]).to.deep.equal([400, -1121]);
    const interval = await getJson<{ code: number }>(`${stack.api.url}/fapi/v1/klines?symbol=BTCUSDT&interval=7m`);
    expect([interval.status, interval.body.code]).to.deep.equal([400, -1120]);
    const missing = await getJson<{ code: number }>(`${stack.api.url}/fapi/v1/klines?interval=1m`);
    expect([missing.status, missing.body.code]).to.deep.equal([400, -1102]);
    const nowhere = await getJson<{ code: number }>(`${stack.api.url}/fapi/v1/nothing`);
    expect(nowhere.status).to.equal(404);
    expect(nowhere.body.code).to.be.a('number');
  });

  it('answers hostile input with a Binance error, never a 5xx', async () => {
    const key = await newKey();
    const now = String(Date.now());
    const answers = await Promise.all([
      getJson(`${stack.api.url}/fapi/v1/klines?symbol=BTCUSDT&interval=1m&limit=-5`),
      getJson(`${stack.api.url}/fapi/v1/klines?symbol=%ZZ&interval=1m`),
      getJson(`${stack.api.url}/fapi/v1/depth?symbol=BTCUSDT&limit=7`),
      getJson(`${stack.api.url}/fapi/v1/ticker/price?symbol=${'A'.repeat(500)}`),
      getJson(`${stack.api.url}/fapi/v1/fundingRate?symbol=BTCUSDT&startTime=abc`),
      signedGet(key, '/v2/balance', { timestamp: 'soon' }),
      signedGet(key, '/v2/balance', { timestamp: now, recvWindow: '999999' }),
      signedGet(key, '/v1/leverage', { symbol: 'BTCUSDT', leverage: '0', timestamp: now }, key.secret, 'POST'),
      signedGet(key, '/v1/order', { symbol: 'BTCUSDT', side: 'HOLD', type: 'MARKET', quantity: '1', timestamp: now }, key.secret, 'POST'),
      signedGet(
        key,
        '/v1/order',
        { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '1e400', timestamp: now },
        key.secret,
        'POST',
      ),
      signedGet(
        key,
        '/v1/order',
        { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.00000001', timestamp: now },
        key.secret,
        'POST',
      ),
      getJson(`${stack.api.url}/fapi/v1/order`, {
        method: 'POST',
        headers: { 'X-MBX-APIKEY': key.apiKey, 'content-type': 'application/x-www-form-urlencoded' },
        body: 'x'.repeat(20_000),
      }),
    ]);
    for (const answer of answers) {
      expect(answer.status, JSON.stringify(answer.body)).to.be.within(400, 499);
      expect((answer.body as { code: number }).code, JSON.stringify(answer.body)).to.be.below(0);
    }
  });

  it('ccxt: fetchBalance, setLeverage, setMarginMode isolated; cross and hedge mode refused with Binance codes', async () => {
    const key = await newKey();
    const exchange = client(key);
    await exchange.loadMarkets();
    const balance = await exchange.fetchBalance();
    expect(balance.USDT).to.deep.include({ free: 10000, used: 0, total: 10000 });
    expect(await exchange.setLeverage(25, 'BTC/USDT:USDT')).to.deep.include({ leverage: 25, symbol: 'BTCUSDT' });
    let raised: unknown;
    await exchange.setLeverage(5000, 'BTC/USDT:USDT').catch((error: unknown) => (raised = error));
    expect(raised).to.be.instanceOf(ccxt.BadRequest);
    expect(await exchange.setMarginMode('isolated', 'BTC/USDT:USDT')).to.deep.include({ code: 200 });
    raised = undefined;
    await exchange.setMarginMode('cross', 'BTC/USDT:USDT').catch((error: unknown) => (raised = error));
    expect(String(raised)).to.include('-4048');
    raised = undefined;
    await exchange.setPositionMode(true).catch((error: unknown) => (raised = error));
    expect(String(raised)).to.include('-4068');
    expect(await exchange.setPositionMode(false)).to.deep.include({ code: 200 });
    const commission = await signedGet(key, '/v1/commissionRate', { symbol: 'BTCUSDT', timestamp: String(Date.now()) });
    expect(commission.body).to.deep.equal({ symbol: 'BTCUSDT', makerCommissionRate: '0.00055', takerCommissionRate: '0.00055' });
    const dual = await signedGet(key, '/v1/positionSide/dual', { timestamp: String(Date.now()) });
    expect(dual.body).to.deep.equal({ dualSidePosition: false });
  });

  it('ccxt: a market buy opens an isolated position at the set leverage, a reduce-only sell closes it; newClientOrderId is idempotent', async () => {
    const key = await newKey();
    const exchange = client(key);
    await exchange.loadMarkets();
    await exchange.setLeverage(10, 'BTC/USDT:USDT');
    const buy = await exchange.createOrder('BTC/USDT:USDT', 'market', 'buy', 0.01, undefined, { newClientOrderId: 'bot-open-1' });
    expect(buy).to.deep.include({ status: 'closed', side: 'buy', amount: 0.01, filled: 0.01, average: 65000, clientOrderId: 'bot-open-1' });
    const again = await exchange.createOrder('BTC/USDT:USDT', 'market', 'buy', 0.01, undefined, { newClientOrderId: 'bot-open-1' });
    expect(again.id).to.equal(buy.id);

    const [position] = await exchange.fetchPositions(['BTC/USDT:USDT']);
    expect(position).to.deep.include({ side: 'long', contracts: 0.01, entryPrice: 65000, marginMode: 'isolated' });
    expect(position.liquidationPrice).to.be.within(58000, 60000);
    const native = await getJson<{ positions: { symbol: string; leverage: number; margin: number }[] }>(
      `${stack.api.url}/api/bot/v1/positions`,
      {
        headers: { 'x-api-key': key.apiKey },
      },
    );
    expect(native.body.positions).to.have.length(1);
    expect(native.body.positions[0]).to.include({ leverage: 10, margin: 65 });

    await stack.prices.set({ BTCUSDT: 66000 });
    const sell = await exchange.createOrder('BTC/USDT:USDT', 'market', 'sell', 0.01, undefined, {
      reduceOnly: true,
      newClientOrderId: 'bot-close-1',
    });
    expect(sell).to.deep.include({ status: 'closed', side: 'sell', filled: 0.01, average: 66000, reduceOnly: true });
    const retry = await exchange.createOrder('BTC/USDT:USDT', 'market', 'sell', 0.01, undefined, {
      reduceOnly: true,
      newClientOrderId: 'bot-close-1',
    });
    expect(retry.id).to.equal(sell.id);
    expect(await exchange.fetchPositions(['BTC/USDT:USDT'])).to.deep.equal([]);
    const balance = await exchange.fetchBalance();
    // +10 USDT of P&L, less the taker fee on both legs (0.055 % of 650 and of 660)
    expect(balance.USDT!.total).to.be.closeTo(10000 + 10 - 0.3575 - 0.363, 0.01);

    let raised: unknown;
    await exchange
      .createOrder('BTC/USDT:USDT', 'market', 'sell', 0.01, undefined, { reduceOnly: true })
      .catch((error: unknown) => (raised = error));
    expect(String(raised)).to.include('-2022');
  });

  it('ccxt: a second market buy adds to the long (amounts summed, entry weighted, liquidation moved); a reduce-only sell closes it', async () => {
    const key = await newKey();
    const exchange = client(key);
    await exchange.loadMarkets();
    await exchange.setLeverage(10, 'BTC/USDT:USDT');
    await exchange.createOrder('BTC/USDT:USDT', 'market', 'buy', 0.01);
    await stack.prices.set({ BTCUSDT: 66000 });
    const add = await exchange.createOrder('BTC/USDT:USDT', 'market', 'buy', 0.03, undefined, { newClientOrderId: 'bot-add-1' });
    expect(add).to.deep.include({ status: 'closed', side: 'buy', amount: 0.03, filled: 0.03, average: 66000, clientOrderId: 'bot-add-1' });
    const again = await exchange.createOrder('BTC/USDT:USDT', 'market', 'buy', 0.03, undefined, { newClientOrderId: 'bot-add-1' });
    expect([again.id, again.average]).to.deep.equal([add.id, 66000]);
    expect(await exchange.fetchOrder(String(add.id), 'BTC/USDT:USDT')).to.deep.include({ status: 'closed', filled: 0.03 });

    const [position] = await exchange.fetchPositions(['BTC/USDT:USDT']);
    // (0.01 x 65000 + 0.03 x 66000) / 0.04, and its liquidation at 10x with the flat 0.5% maintenance
    expect(position).to.deep.include({ side: 'long', contracts: 0.04, entryPrice: 65750, marginMode: 'isolated' });
    expect(position.liquidationPrice).to.be.closeTo(65750 * (1 - 0.1 + 0.005), 0.01);
    const native = await getJson<{ positions: { leverage: number; margin: number }[] }>(`${stack.api.url}/api/bot/v1/positions`, {
      headers: { 'x-api-key': key.apiKey },
    });
    expect(native.body.positions).to.have.length(1);
    expect(native.body.positions[0]).to.include({ leverage: 10, margin: 263 });

    await stack.prices.set({ BTCUSDT: 67000 });
    const sell = await exchange.createOrder('BTC/USDT:USDT', 'market', 'sell', 0.04, undefined, { reduceOnly: true });
    expect(sell).to.deep.include({ status: 'closed', side: 'sell', filled: 0.04, average: 67000, reduceOnly: true });
    expect(await exchange.fetchPositions(['BTC/USDT:USDT'])).to.deep.equal([]);
    const balance = await exchange.fetchBalance();
    // 0.04 x (67000 - 65750) = +50 USDT, less the taker fee on each leg (0.055 % of 650, 1980 and 2680)
    expect(balance.USDT!.total).to.be.closeTo(10000 + 50 - 0.3575 - 1.089 - 1.474, 0.01);
  });

  /** The book's positions and resting orders as the native API shows them. */
  const native = async (key: SecretKey) => {
    const headers = { 'x-api-key': key.apiKey };
    const [positions, orders] = await Promise.all([
      getJson<{ positions: { id: string; sl: number | null; tp: number | null; trail_pct?: number }[] }>(
        `${stack.api.url}/api/bot/v1/positions`,
        { headers },
      ),
      getJson<{ orders: { order_id: string; type: string; limit_price: number }[] }>(`${stack.api.url}/api/bot/v1/orders`, { headers }),
    ]);
    return { positions: positions.body.positions, orders: orders.body.orders };
  };
  const raised = (promise: Promise<unknown>): Promise<unknown> =>
    promise.then(
      () => undefined,
      (error: unknown) => error,
    );

  it("ccxt: a limit rests as the engine's limit entry, is listed, fetched by id and clientOrderId, and cancelled; post-only -5022", async () => {
    const key = await newKey();
    const exchange = client(key);
    await exchange.loadMarkets();
    await exchange.setLeverage(10, 'BTC/USDT:USDT');
    const limit = await exchange.createOrder('BTC/USDT:USDT', 'limit', 'buy', 0.01, 60000, { newClientOrderId: 'bot-limit-1' });
    expect(limit).to.deep.include({ status: 'open', type: 'limit', side: 'buy', price: 60000, amount: 0.01, clientOrderId: 'bot-limit-1' });
    const resting = (await native(key)).orders;
    expect(resting.map((o) => [o.order_id, o.type, o.limit_price])).to.deep.equal([[limit.id, 'limit', 60000]]);

    expect((await exchange.fetchOpenOrders('BTC/USDT:USDT')).map((o) => o.id)).to.deep.equal([limit.id]);
    expect(await exchange.fetchOrder(limit.id!, 'BTC/USDT:USDT')).to.deep.include({ id: limit.id, status: 'open', price: 60000 });
    const byClient = await exchange.fetchOrder('', 'BTC/USDT:USDT', { clientOrderId: 'bot-limit-1' });
    expect(byClient.id).to.equal(limit.id);

    const openOrder = (ref: Record<string, string>) =>
      signedGet(key, '/v1/openOrder', { symbol: 'BTCUSDT', timestamp: String(Date.now()), ...ref }) as Promise<{
        status: number;
        body: { code?: number; status?: string; orderId?: string };
      }>;
    expect((await openOrder({ origClientOrderId: 'bot-limit-1' })).body).to.deep.include({ orderId: limit.id, status: 'NEW' });
    expect(await exchange.cancelOrder(limit.id!, 'BTC/USDT:USDT')).to.deep.include({ id: limit.id, status: 'canceled' });
    const gone = await openOrder({ orderId: limit.id! });
    expect([gone.status, gone.body.code]).to.deep.equal([400, -2013]);
    expect(await exchange.fetchOpenOrders('BTC/USDT:USDT')).to.deep.equal([]);
    expect((await native(key)).orders).to.deep.equal([]);
    expect(String(await raised(exchange.cancelOrder(limit.id!, 'BTC/USDT:USDT')))).to.include('-2011');
    const all = await exchange.fetchOrders('BTC/USDT:USDT');
    expect(all.map((o) => [o.id, o.status])).to.deep.equal([[limit.id, 'canceled']]);

    await exchange.createOrder('BTC/USDT:USDT', 'limit', 'buy', 0.01, 61000);
    await exchange.createOrder('BTC/USDT:USDT', 'limit', 'sell', 0.01, 69000);
    await exchange.cancelAllOrders('BTC/USDT:USDT');
    expect(await exchange.fetchOpenOrders('BTC/USDT:USDT')).to.deep.equal([]);

    const postOnly = await raised(exchange.createOrder('BTC/USDT:USDT', 'limit', 'buy', 0.01, 60000, { postOnly: true }));
    expect(postOnly).to.be.instanceOf(ccxt.InvalidOrder);
    expect(String(postOnly)).to.include('-5022');
  });

  it('ccxt: a reduce-only STOP_MARKET on a long sets its stop, is listed and cancelled (clearing it); take-profit and trailing stop too', async () => {
    const key = await newKey();
    const exchange = client(key);
    await exchange.loadMarkets();
    await exchange.setLeverage(10, 'BTC/USDT:USDT');
    await exchange.createOrder('BTC/USDT:USDT', 'market', 'buy', 0.01);
    const stop = await exchange.createOrder('BTC/USDT:USDT', 'STOP_MARKET', 'sell', 0.01, undefined, {
      stopPrice: 62000,
      reduceOnly: true,
      clientOrderId: 'bot-stop-1',
    });
    expect(stop).to.deep.include({ status: 'open', side: 'sell', triggerPrice: 62000, reduceOnly: true, clientOrderId: 'bot-stop-1' });
    const [position] = (await native(key)).positions;
    expect([position.sl, position.tp]).to.deep.equal([62000, null]);

    const listed = await exchange.fetchOpenOrders('BTC/USDT:USDT', undefined, undefined, { trigger: true });
    expect(listed.map((o) => [o.id, o.triggerPrice])).to.deep.equal([[stop.id, 62000]]);
    expect((await exchange.fetchOpenOrders('BTC/USDT:USDT')).map((o) => o.id)).to.deep.equal([stop.id]);
    const fetched = await exchange.fetchOrder(stop.id!, 'BTC/USDT:USDT', { trigger: true });
    expect(fetched).to.deep.include({ id: stop.id, status: 'open', triggerPrice: 62000 });

    await exchange.cancelOrder(stop.id!, 'BTC/USDT:USDT', { trigger: true });
    const history = await exchange.fetchOrders('BTC/USDT:USDT', undefined, undefined, { trigger: true });
    expect(history.map((o) => [o.id, o.status])).to.deep.equal([[stop.id, 'canceled']]);
    expect((await native(key)).positions[0].sl).to.equal(null);
    expect(await exchange.fetchOpenOrders('BTC/USDT:USDT', undefined, undefined, { trigger: true })).to.deep.equal([]);

    const target = await exchange.createOrder('BTC/USDT:USDT', 'TAKE_PROFIT_MARKET', 'sell', 0.01, undefined, {
      stopPrice: 70000,
      closePosition: true,
    });
    const trail = await exchange.createOrder('BTC/USDT:USDT', 'TRAILING_STOP_MARKET', 'sell', 0.01, undefined, {
      trailingPercent: 1.5,
      reduceOnly: true,
    });
    const levels = (await native(key)).positions[0];
    expect([levels.tp, levels.trail_pct]).to.deep.equal([70000, 1.5]);
    const open = await exchange.fetchOpenOrders('BTC/USDT:USDT', undefined, undefined, { trigger: true });
    expect(open.map((o) => o.id).sort()).to.deep.equal([target.id, trail.id].sort());
    await exchange.cancelAllOrders('BTC/USDT:USDT', { trigger: true });
    const cleared = (await native(key)).positions[0];
    expect([cleared.sl, cleared.tp, cleared.trail_pct]).to.deep.equal([null, null, undefined]);

    // a stop above a long's entry would fire at once; one for half the position is not an engine level
    const wrongSide = await raised(
      exchange.createOrder('BTC/USDT:USDT', 'STOP_MARKET', 'sell', 0.01, undefined, { stopPrice: 66000, reduceOnly: true }),
    );
    expect(String(wrongSide)).to.include('-2021');
    const partial = await raised(
      exchange.createOrder('BTC/USDT:USDT', 'STOP_MARKET', 'sell', 0.005, undefined, { stopPrice: 62000, reduceOnly: true }),
    );
    expect(String(partial)).to.include('-2010');
  });

  it('ccxt: fetchMyTrades after a close shows each fill with its fee and the realized P&L; income adds up to the balance; fetchOrder finds fills', async () => {
    const key = await newKey();
    const exchange = client(key);
    await exchange.loadMarkets();
    await exchange.setLeverage(10, 'BTC/USDT:USDT');
    const buy = await exchange.createOrder('BTC/USDT:USDT', 'market', 'buy', 0.01, undefined, { newClientOrderId: 'mt-open' });
    await stack.prices.set({ BTCUSDT: 66000 });
    const sell = await exchange.createOrder('BTC/USDT:USDT', 'market', 'sell', 0.01, undefined, {
      reduceOnly: true,
      newClientOrderId: 'mt-close',
    });

    const trades = await exchange.fetchMyTrades('BTC/USDT:USDT');
    expect(trades.map((t) => [t.side, t.price, t.amount])).to.deep.equal([
      ['buy', 65000, 0.01],
      ['sell', 66000, 0.01],
    ]);
    expect(trades[0].fee?.cost).to.be.closeTo(0.3575, 1e-6);
    expect(trades[1].fee?.cost).to.be.closeTo(0.363, 1e-6);
    expect(trades.map((t) => t.fee?.currency)).to.deep.equal(['USDT', 'USDT']);
    expect(trades.map((t) => Number((t.info as { realizedPnl: string }).realizedPnl))).to.deep.equal([0, 10]);

    const now = String(Date.now());
    const income = await signedGet(key, '/v1/income', { symbol: 'BTCUSDT', timestamp: now });
    const rows = income.body as unknown as { incomeType: string; income: string }[];
    expect(rows.map((r) => r.incomeType)).to.deep.equal(['REALIZED_PNL', 'COMMISSION']);
    const moved = rows.reduce((sum, r) => sum + Number(r.income), 0);
    // the balance settles the net in cents
    expect((await exchange.fetchBalance()).USDT!.total).to.be.closeTo(10000 + moved, 0.005);
    expect(moved).to.be.closeTo(10 - 0.3575 - 0.363, 1e-6);

    expect(await exchange.fetchOrder(buy.id!, 'BTC/USDT:USDT')).to.deep.include({
      id: buy.id,
      status: 'closed',
      average: 65000,
      filled: 0.01,
    });
    expect((await exchange.fetchOrder('', 'BTC/USDT:USDT', { clientOrderId: 'mt-close' })).id).to.equal(sell.id);
    const all = await exchange.fetchOrders('BTC/USDT:USDT');
    expect(all.map((o) => [o.id, o.status])).to.deep.equal([
      [buy.id, 'closed'],
      [sell.id, 'closed'],
    ]);
    const unknown = await signedGet(key, '/v1/order', { symbol: 'BTCUSDT', orderId: 'nope', timestamp: now });
    expect([unknown.status, unknown.body.code]).to.deep.equal([400, -2013]);
  });

  it('answers an impossible order with a 4xx Binance code, never a 5xx', async () => {
    const key = await newKey();
    const exchange = client(key);
    await exchange.loadMarkets();
    await exchange.createOrder('BTC/USDT:USDT', 'market', 'buy', 0.01);
    const post = (params: Record<string, string>) =>
      signedGet(key, '/v1/order', { symbol: 'BTCUSDT', timestamp: String(Date.now()), ...params }, key.secret, 'POST');
    const cases: [Record<string, string>, number][] = [
      // a resting order that would shrink the long: the engine's resting entries only open
      [{ side: 'SELL', type: 'LIMIT', quantity: '0.01', price: '70000' }, -2010],
      [{ side: 'BUY', type: 'LIMIT', quantity: '0.01' }, -1102],
      [{ side: 'BUY', type: 'LIMIT', quantity: '0.01', price: '60000', timeInForce: 'IOC' }, -1115],
      [{ side: 'BUY', type: 'LIMIT', quantity: '0.01', price: '60000', timeInForce: 'GTX' }, -5022],
      [{ side: 'SELL', type: 'TAKE_PROFIT_MARKET', quantity: '0.01', stopPrice: '70000' }, -1116],
      [
        { side: 'SELL', type: 'TRAILING_STOP_MARKET', quantity: '0.01', callbackRate: '1', activationPrice: '66000', reduceOnly: 'true' },
        -1116,
      ],
      [{ side: 'BUY', type: 'STOP_MARKET', quantity: '0.01', stopPrice: '60000', reduceOnly: 'true' }, -2022],
      [{ side: 'BUY', type: 'STOP', quantity: '0.01', stopPrice: '60000', price: '60000' }, -1116],
    ];
    for (const [params, code] of cases) {
      const answer = await post(params);
      expect([answer.status, answer.body.code], JSON.stringify(params)).to.deep.equal([400, code]);
    }
    const now = String(Date.now());
    const cancel = await signedGet(key, '/v1/order', { symbol: 'BTCUSDT', orderId: 'nope', timestamp: now }, key.secret, 'DELETE');
    expect([cancel.status, cancel.body.code]).to.deep.equal([400, -2011]);
    const hostile = await Promise.all([
      signedGet(key, '/v1/order', { symbol: 'BTCUSDT', timestamp: now }),
      signedGet(key, '/v1/order', { symbol: 'BTCUSDT', orderId: '../x', timestamp: now }),
      signedGet(key, '/v1/allOrders', { symbol: 'BTCUSDT', limit: '-1', timestamp: now }),
      signedGet(key, '/v1/userTrades', { symbol: 'BTCUSDT', startTime: 'abc', timestamp: now }),
      signedGet(key, '/v1/income', { limit: '5000', timestamp: now }),
      signedGet(key, '/v1/openOrders', { symbol: 'NOPEUSDT', timestamp: now }),
      signedGet(key, '/v1/algoOrder', { timestamp: now }),
      signedGet(key, '/v1/algoOrder', { algoId: 'nope', timestamp: now }, key.secret, 'DELETE'),
      signedGet(
        key,
        '/v1/algoOrder',
        { symbol: 'BTCUSDT', side: 'SELL', type: 'LIMIT', algoType: 'CONDITIONAL', timestamp: now },
        key.secret,
        'POST',
      ),
    ]);
    for (const answer of hostile) {
      expect(answer.status, JSON.stringify(answer.body)).to.be.within(400, 499);
      expect(answer.body.code, JSON.stringify(answer.body)).to.be.below(0);
    }
    // a limit buy above the market would fill at once: the engine rests only what the market has not reached
    const marketable = await raised(exchange.createOrder('ETH/USDT:USDT', 'limit', 'buy', 0.1, 4000));
    expect(marketable).to.be.instanceOf(ccxt.InvalidOrder);
  });
});
