import { expect } from 'chai';
import { startSim } from '../../ops/sim/sim-server.js';
import { TRADFI } from '../../ops/sim/symbols.js';
import { at, getJson, postJson, shapeDiff, toWsUrl, useProbedSim, WsProbe } from '../helpers/sim-client.js';
import { fixture } from '../helpers/fixtures.js';

const MINUTE = 60_000;

describe('simulated exchange control plane', () => {
  const stack = useProbedSim();
  const { open } = stack;

  const post = (path: string, body: unknown) => postJson(`${stack.sim.url}/__sim${path}`, body);

  it('the shape checker itself reports missing keys and type changes', () => {
    expect(shapeDiff({ a: '1', b: [1, 'x'] }, { a: 1, b: [1, 'x'], c: true })).to.deep.equal([
      '$.c: unexpected',
      '$.a: expected string, got number',
    ]);
    expect(shapeDiff([{ a: 1 }], [{ a: 2 }, { b: 2 }])).to.deep.equal(['$[1].a: missing', '$[1].b: unexpected']);
  });

  it('provider down: REST 503, sockets dropped and refused; up: works again', async () => {
    const bin = await open('/binance/stream?streams=btcusdt@ticker');
    const bybit = await open('/bybit/v5/public/linear');
    const down = await post('/provider', { name: 'binance', down: true });
    expect(down.status).to.equal(200);
    expect(at(down.body, 'providersDown')).to.deep.equal(['binance']);
    expect(await bin.waitClose()).to.equal(1006);
    expect((await getJson(`${stack.sim.url}/binance/fapi/v1/ticker/price`)).status).to.equal(503);
    let refused: unknown;
    await WsProbe.open(`${toWsUrl(stack.sim.url)}/binance/stream`).then(
      (p) => p.close(),
      (e: unknown) => (refused = e),
    );
    expect(String(refused)).to.contain('503');
    // other venues are unaffected
    expect((await getJson(`${stack.sim.url}/bybit/v5/market/tickers?category=linear`)).status).to.equal(200);
    bybit.send({ op: 'ping' });
    await bybit.waitFor((m) => at(m, 'ret_msg') === 'pong');

    await post('/provider', { name: 'binance', down: false });
    expect((await getJson(`${stack.sim.url}/binance/fapi/v1/ticker/price`)).status).to.equal(200);
    const again = await open('/binance/stream?streams=btcusdt@ticker');
    await again.waitFor((m) => at(m, 'stream') === 'btcusdt@ticker', { label: 'ticker after recovery' });
  });

  it('any provider name can be marked down and shows in the state', async () => {
    await post('/provider', { name: 'awesomeapi', down: true });
    expect(at((await getJson(`${stack.sim.url}/__sim/state`)).body, 'providersDown')).to.deep.equal(['awesomeapi']);
    await post('/provider', { name: 'awesomeapi', down: false });
    expect(at((await getJson(`${stack.sim.url}/__sim/state`)).body, 'providersDown')).to.deep.equal([]);
  });

  it('drop closes open sockets abruptly (one exchange or all) and reconnects are accepted', async () => {
    const sockets = await Promise.all(
      ['/binance/stream', '/bybit/v5/public/linear', '/okx/ws/v5/public', '/bitget/v2/ws/public'].map(open),
    );
    const one = await post('/drop', { exchange: 'okx' });
    expect(at(one.body, 'dropped')).to.be.at.least(1);
    expect(await sockets[2].waitClose()).to.equal(1006);
    expect(sockets[0].ws.readyState).to.equal(sockets[0].ws.OPEN);
    const all = await postJson(`${stack.sim.url}/__sim/drop`, '');
    expect(all.status).to.equal(200);
    for (const i of [0, 1, 3]) expect(await sockets[i].waitClose()).to.equal(1006);
    const back = await open('/okx/ws/v5/public');
    back.send('ping');
    await back.waitFor((m) => m === 'pong');
  });

  it('liquidations stream in the Binance and Bybit formats and are recorded for every exchange', async () => {
    const arr = await open('/binance/stream?streams=!forceOrder@arr/btcusdt@forceOrder');
    const bybit = await open('/bybit/v5/public/linear');
    bybit.send({ op: 'subscribe', args: ['allLiquidation.BTCUSDT'] });
    await bybit.waitFor((m) => at(m, 'op') === 'subscribe' && at(m, 'success') === true);

    const b = await post('/liquidation', { exchange: 'binance', symbol: 'BTCUSDT', side: 'long', price: 64000.5, qty: 0.014 });
    expect(at(b.body, 'streamed')).to.equal(true);
    const all = await arr.waitFor((m) => at(m, 'stream') === '!forceOrder@arr', { label: '!forceOrder@arr' });
    await arr.waitFor((m) => at(m, 'stream') === 'btcusdt@forceOrder', { label: 'btcusdt@forceOrder' });
    expect(shapeDiff(fixture('binance-usdm/ws-force-order.json'), at(all, 'data'))).to.deep.equal([]);
    expect(at(all, 'data', 'o', 'S')).to.equal('SELL');
    expect(at(all, 'data', 'o', 'q')).to.equal('0.014');

    await post('/liquidation', { exchange: 'bybit', symbol: 'BTC', side: 'long', price: 64000, qty: 2 });
    const liq = await bybit.waitFor((m) => at(m, 'topic') === 'allLiquidation.BTCUSDT', { label: 'allLiquidation' });
    expect(shapeDiff(fixture('bybit-v5/ws-all-liquidation.json'), liq)).to.deep.equal([]);
    expect(at(liq, 'data', 0, 'S')).to.equal('Buy');

    // an exchange without a simulated format (the nine are in test/integration/liq-sim-formats.test.ts)
    const other = await post('/liquidation', { exchange: 'kraken', symbol: 'ETHUSDT', side: 'short', price: 3000, qty: 1 });
    expect(other.status).to.equal(200);
    expect(at(other.body, 'streamed')).to.equal(false);
    const recorded = at((await getJson(`${stack.sim.url}/__sim/liquidations`)).body, 'liquidations') as unknown[];
    expect(recorded.map((r) => at(r, 'exchange'))).to.deep.equal(['binance', 'bybit', 'kraken']);
  });

  it('a candle for the current minute becomes the open candle', async () => {
    const bin = await open('/binance/stream?streams=linkusdt@kline_1m');
    const t = at((await getJson(`${stack.sim.url}/__sim/state?symbol=LINK`)).body, 'candle', 't') as number;
    const mark = bin.mark();
    const res = await post('/candle', { symbol: 'LINK', minute: t, open: 10, high: 12, low: 9, close: 11 });
    if (at(res.body, 'kind') === 'past') return; // the minute rolled over between the two calls
    expect(at(res.body, 'kind')).to.equal('current');
    const k = await bin.waitFor(
      (m) => at(m, 'data', 'k', 't') === t && at(m, 'data', 'k', 'x') === false && at(m, 'data', 'k', 'c') === '11.0000',
      { since: mark },
    );
    expect(at(k, 'data', 'k', 'h')).to.equal('12.0000');
    expect(at((await getJson(`${stack.sim.url}/__sim/state?symbol=LINKUSDT`)).body, 'price')).to.equal(11);
  });

  it('close-minute closes the current minute now: its scripted candle is published closed and the next minute opens', async () => {
    const bin = await open('/binance/stream?streams=linkusdt@kline_1m');
    const bybit = await open('/bybit/v5/public/linear');
    bybit.send({ op: 'subscribe', args: ['kline.1.LINKUSDT'] });
    await bybit.waitFor((m) => at(m, 'op') === 'subscribe', { label: 'the bybit subscription' });
    let t: number;
    for (;;) {
      t = at((await getJson(`${stack.sim.url}/__sim/state?symbol=LINK`)).body, 'candle', 't') as number;
      const res = await post('/candle', { symbol: 'LINK', minute: t, open: 20, high: 22, low: 19, close: 21 });
      if (at(res.body, 'kind') === 'current') break; // else the minute rolled over between the two calls
    }
    const mark = bin.mark();
    const started = Date.now();
    const closed = await post('/close-minute', {});
    expect(closed.status).to.equal(200);
    expect(at(closed.body, 'closed')).to.equal(t);
    expect(at(closed.body, 'now')).to.be.at.least(t + MINUTE);
    const k = await bin.waitFor((m) => at(m, 'data', 'k', 't') === t && at(m, 'data', 'k', 'x') === true, {
      since: mark,
      label: 'the closed binance kline',
    });
    expect([at(k, 'data', 'k', 'o'), at(k, 'data', 'k', 'h'), at(k, 'data', 'k', 'l'), at(k, 'data', 'k', 'c')]).to.deep.equal([
      '20.0000',
      '22.0000',
      '19.0000',
      '21.0000',
    ]);
    await bybit.waitFor((m) => at(m, 'data', 0, 'start') === t && at(m, 'data', 0, 'confirm') === true, {
      label: 'the closed bybit kline',
    });
    // well before the wall clock's minute ended (a minute's wait otherwise)
    expect(Date.now() - started).to.be.below(MINUTE / 2);
    const state = (await getJson(`${stack.sim.url}/__sim/state?symbol=LINK`)).body;
    expect(at(state, 'candle', 't')).to.equal(t + MINUTE);
    expect(at(state, 'now')).to.be.at.least(t + MINUTE);
    const rest = (await getJson(`${stack.sim.url}/binance/fapi/v1/klines?symbol=LINKUSDT&interval=1m&startTime=${t}&limit=2`)).body;
    expect(at(rest, 0, 0)).to.equal(t);
    expect(at(rest, 0, 4)).to.equal('21.0000');
    expect(at(rest, 1, 0)).to.equal(t + MINUTE);
  });

  it('rejects bad input with 400 (404 for unknown symbols)', async () => {
    const t = at((await getJson(`${stack.sim.url}/__sim/state?symbol=BTC`)).body, 'candle', 't') as number;
    const cases: Array<[string, unknown, number]> = [
      ['/price', { symbol: 'BTCUSDT' }, 400],
      ['/price', { symbol: 'BTCUSDT', price: -1 }, 400],
      ['/price', { symbol: 'BTCUSDT', price: 'abc' }, 400],
      ['/price', { price: 1 }, 400],
      ['/price', { symbol: 'NOPE', price: 1 }, 404],
      ['/price', '{not json', 400],
      ['/price', [1, 2], 400],
      ['/candle', { symbol: 'BTC', minute: t + 1, open: 1, high: 1, low: 1, close: 1 }, 400],
      ['/candle', { symbol: 'BTC', minute: t + MINUTE, open: 1, high: 1, low: 1, close: 1 }, 400],
      ['/candle', { symbol: 'BTC', minute: t - 3 * 24 * 60 * MINUTE, open: 1, high: 1, low: 1, close: 1 }, 400],
      ['/candle', { symbol: 'BTC', minute: t - MINUTE, open: 10, high: 9, low: 8, close: 9 }, 400],
      ['/candle', { symbol: 'BTC', minute: t - MINUTE, open: 10, high: 11, low: 8, close: 9, volume: -1 }, 400],
      ['/liquidation', { exchange: 'binance', symbol: 'BTC', side: 'up', price: 1, qty: 1 }, 400],
      ['/liquidation', { exchange: 'binance', symbol: 'BTC', side: 'long', price: 1, qty: 0 }, 400],
      ['/liquidation', { symbol: 'BTC', side: 'long', price: 1, qty: 1 }, 400],
      ['/provider', { name: 'binance' }, 400],
      ['/provider', { down: true }, 400],
      ['/mode', { mode: 'fast' }, 400],
      ['/drop', { exchange: 'kraken' }, 400],
      ['/market', { symbol: 'XAUUSDT' }, 400],
      ['/market', { symbol: 'XAUUSDT', closed: 'yes' }, 400],
      ['/market', { symbol: 'XAUUSDT', frozen: 1 }, 400],
      ['/market', { symbol: 'BTCUSDT', frozen: true }, 400],
      ['/market', { symbol: 'BTCUSDT', closed: true }, 400],
      ['/market', { symbol: 'NOPE', closed: true }, 404],
    ];
    for (const [path, body, status] of cases) {
      const res = await post(path, body);
      expect(res.status, `${path} ${JSON.stringify(body)}`).to.equal(status);
      expect(at(res.body, 'ok')).to.equal(false);
      expect(at(res.body, 'error')).to.be.a('string');
    }
    expect((await getJson(`${stack.sim.url}/__sim/state?symbol=NOPE`)).status).to.equal(404);
    expect((await post('/nothing', {})).status).to.equal(404);
  });

  it('switches mode; random mode walks prices with a small spread between venues', async () => {
    const random = await startSim({ port: 0, tickMs: 50, seed: 1 });
    try {
      const s0 = at((await getJson(`${random.url}/__sim/state?symbol=BTC`)).body, 'prices') as Record<string, number>;
      const values = Object.values(s0);
      expect(new Set(values).size).to.be.above(1);
      for (const v of values) expect(Math.abs(v / s0.binance - 1)).to.be.below(0.001);
      const bin = await WsProbe.open(`${toWsUrl(random.url)}/binance/stream?streams=btcusdt@ticker`);
      try {
        await bin.waitFor((m) => num(at(m, 'data', 'c')) !== s0.binance, { timeoutMs: 5000, label: 'a price move' });
      } finally {
        bin.close();
      }
      const vols = ((await getJson(`${random.url}/binance/fapi/v1/ticker/24hr`)).body as unknown[])
        .filter((x) => !String(at(x, 'symbol')).includes('_'))
        .map((x) => num(at(x, 'quoteVolume')));
      expect(vols.length).to.equal(60 + TRADFI.length);
      expect(vols[0]).to.be.within(1e10, 2.5e10);
      expect(vols[59]).to.be.within(3e6, 3e7);
      expect(at((await postJson(`${random.url}/__sim/mode`, { mode: 'scripted' })).body, 'mode')).to.equal('scripted');
      const s1 = at((await getJson(`${random.url}/__sim/state?symbol=BTC`)).body, 'prices') as Record<string, number>;
      expect(new Set(Object.values(s1)).size).to.equal(1);
    } finally {
      await random.close();
    }
  });
});

const num = (v: unknown): number => Number(v);
