import { expect } from 'chai';
import { TRADFI } from '../../ops/sim/symbols.js';
import { at, getJson, postJson, shapeDiff, useProbedSim } from '../helpers/sim-client.js';
import { fixture } from '../helpers/fixtures.js';
import { BINANCE_WS_TICKER, BITGET_CANDLES, BITGET_TICKERS, BITGET_WS_CANDLE, BITGET_WS_TICKER } from '../helpers/sim-shapes.js';

const MINUTE = 60_000;
const FIRST_EIGHT = ['BTCUSDT', 'ETHUSDT', 'SOLUSDT', 'BNBUSDT', 'XRPUSDT', 'DOGEUSDT', 'ADAUSDT', 'AVAXUSDT'];

describe('simulated exchange (scripted mode)', () => {
  const stack = useProbedSim(7);
  const { open } = stack;

  async function shaped(path: string, reference: unknown): Promise<unknown> {
    const res = await getJson(stack.sim.url + path);
    expect(res.status, path).to.equal(200);
    expect(shapeDiff(reference, res.body), path).to.deep.equal([]);
    return res.body;
  }

  async function currentMinute(): Promise<number> {
    const state = await getJson(`${stack.sim.url}/__sim/state?symbol=BTCUSDT`);
    return at(state.body, 'candle', 't') as number;
  }

  const num = (v: unknown): number => Number(v);

  describe('REST bodies have the fixtures’ keys and JSON types', () => {
    it('binance exchangeInfo, ticker/24hr, ticker/price, klines', async () => {
      const info = await shaped('/binance/fapi/v1/exchangeInfo', fixture('binance-usdm/exchange-info.json'));
      const perps = (at(info, 'symbols') as unknown[]).filter((s) => at(s, 'contractType') === 'PERPETUAL');
      expect(perps.length).to.equal(60);
      const tradfi = (at(info, 'symbols') as unknown[]).filter((s) => at(s, 'contractType') === 'TRADIFI_PERPETUAL');
      expect(tradfi.map((s) => [at(s, 'symbol'), at(s, 'underlyingType')])).to.deep.include.members([
        ['XAUUSDT', 'COMMODITY'],
        ['TSLAUSDT', 'EQUITY'],
      ]);
      expect(tradfi).to.have.length(TRADFI.length);
      expect(perps.slice(0, 8).map((s) => at(s, 'symbol'))).to.deep.equal(FIRST_EIGHT);
      const tickers = fixture('binance-usdm/ticker-24hr.json');
      await shaped('/binance/fapi/v1/ticker/24hr', tickers);
      await shaped('/binance/fapi/v1/ticker/24hr?symbol=BTCUSDT', at(tickers, 0));
      await shaped('/binance/fapi/v1/ticker/price', fixture('binance-usdm/ticker-price.json'));
      const klines = (await shaped(
        '/binance/fapi/v1/klines?symbol=BTCUSDT&interval=1m&limit=1500',
        fixture('binance-usdm/klines.json'),
      )) as unknown[][];
      expect(klines).to.have.length(1500);
      expect(klines[1][0]).to.equal((klines[0][0] as number) + MINUTE);
      expect(klines[1499][0]).to.equal(await currentMinute());
      const dflt = (await getJson(`${stack.sim.url}/binance/fapi/v1/klines?symbol=BTCUSDT&interval=1m`)).body as unknown[];
      expect(dflt).to.have.length(500);
      const premium = (await shaped('/binance/fapi/v1/premiumIndex', fixture('binance-usdm/premium-index.json'))) as unknown[];
      expect(premium.find((p) => at(p, 'symbol') === 'XAUUSDT')).to.have.property('lastFundingRate', '0.00010000');
      await shaped('/binance/fapi/v1/premiumIndex?symbol=BTCUSDT', at(fixture('binance-usdm/premium-index.json'), 0));
      const bad = await getJson(`${stack.sim.url}/binance/fapi/v1/ticker/24hr?symbol=NOPEUSDT`);
      expect(bad.status).to.equal(400);
      expect(at(bad.body, 'code')).to.equal(-1121);
    });

    it('bybit instruments-info (paginated), tickers, kline', async () => {
      await shaped('/bybit/v5/market/instruments-info?category=linear', fixture('bybit-v5/instruments-info-linear.json'));
      const names: string[] = [];
      let cursor = '';
      for (let page = 0; page < 10; page++) {
        const body = await shaped(
          `/bybit/v5/market/instruments-info?category=linear&limit=25&cursor=${cursor}`,
          fixture('bybit-v5/instruments-info-linear.json'),
        );
        names.push(...(at(body, 'result', 'list') as unknown[]).map((i) => at(i, 'symbol') as string));
        cursor = at(body, 'result', 'nextPageCursor') as string;
        if (cursor === '') break;
      }
      // Bybit lists no index perpetual (ops/sim/venues/bybit-format.ts)
      expect(new Set(names).size).to.equal(61 + TRADFI.filter(([, , , c]) => c !== 'index').length);
      expect(names).to.include.members(FIRST_EIGHT);
      await shaped('/bybit/v5/market/tickers?category=linear', fixture('bybit-v5/tickers.json'));
      await shaped('/bybit/v5/market/tickers?category=linear&symbol=ETHUSDT', fixture('bybit-v5/tickers.json'));
      const k = await shaped('/bybit/v5/market/kline?category=linear&symbol=BTCUSDT&interval=1&limit=5', fixture('bybit-v5/kline.json'));
      const list = at(k, 'result', 'list') as string[][];
      expect(list).to.have.length(5);
      expect(num(list[0][0]) - num(list[1][0])).to.equal(MINUTE, 'newest first');
      const max = at(
        (await getJson(`${stack.sim.url}/bybit/v5/market/kline?category=linear&symbol=BTCUSDT&interval=1&limit=5000`)).body,
        'result',
        'list',
      );
      expect(max).to.have.length(1000);
      const bad = await getJson(`${stack.sim.url}/bybit/v5/market/tickers?category=linear&symbol=NOPEUSDT`);
      expect(at(bad.body, 'retCode')).to.equal(10001);
    });

    it('okx instruments, tickers, ticker, candles, history-candles', async () => {
      // instCategory is newer than this capture; OKX's answers carry it now
      const recorded = fixture('okx-v5/instruments-swap.json') as { data: Record<string, unknown>[] };
      const reference = { ...recorded, data: recorded.data.map((row) => ({ ...row, instCategory: '1' })) };
      const inst = await shaped('/okx/api/v5/public/instruments?instType=SWAP', reference);
      const usdt = (at(inst, 'data') as unknown[]).filter((i) => at(i, 'settleCcy') === 'USDT');
      // OKX lists the coins and the stocks (instCategory 3), no metal, index or currency swap we have a sample of
      expect(usdt.length).to.equal(60 + TRADFI.filter(([, , , c]) => c === 'stock').length);
      expect(usdt.find((i) => at(i, 'instId') === 'TSLA-USDT-SWAP')).to.have.property('instCategory', '3');
      expect(usdt.find((i) => at(i, 'instId') === 'BTC-USDT-SWAP')).to.have.property('ctVal', '0.01');
      const tickers = fixture('okx-v5/tickers-swap.json');
      await shaped('/okx/api/v5/market/tickers?instType=SWAP', tickers);
      await shaped('/okx/api/v5/market/ticker?instId=SOL-USDT-SWAP', tickers);
      const c = await shaped('/okx/api/v5/market/candles?instId=BTC-USDT-SWAP&bar=1m&limit=300', fixture('okx-v5/candles.json'));
      const rows = at(c, 'data') as string[][];
      expect(rows).to.have.length(300);
      expect(rows[0][8]).to.equal('0', 'open bar first');
      expect(rows[1][8]).to.equal('1');
      expect(num(rows[0][0]) - num(rows[1][0])).to.equal(MINUTE);
      const h = await shaped(`/okx/api/v5/market/history-candles?instId=BTC-USDT-SWAP&after=${rows[0][0]}`, fixture('okx-v5/candles.json'));
      expect((at(h, 'data') as string[][])[0][0]).to.equal(rows[1][0], 'after is exclusive');
      const bad = await getJson(`${stack.sim.url}/okx/api/v5/market/ticker?instId=NOPE-USDT-SWAP`);
      expect(at(bad.body, 'code')).to.equal('51001');
    });

    it('bitget contracts, tickers, candles', async () => {
      const q = 'productType=USDT-FUTURES';
      const contracts = await shaped(`/bitget/api/v2/mix/market/contracts?${q}`, fixture('bitget/contracts.json'));
      expect((at(contracts, 'data') as unknown[]).map((x) => at(x, 'symbol'))).to.include.members(FIRST_EIGHT);
      await shaped(`/bitget/api/v2/mix/market/tickers?${q}`, BITGET_TICKERS);
      const c = await shaped(`/bitget/api/v2/mix/market/candles?symbol=BTCUSDT&${q}&granularity=1m&limit=3`, BITGET_CANDLES);
      const rows = at(c, 'data') as string[][];
      expect(num(rows[1][0]) - num(rows[0][0])).to.equal(MINUTE, 'oldest first');
      expect(num(rows[2][0])).to.equal(await currentMinute());
      const bad = await getJson(`${stack.sim.url}/bitget/api/v2/mix/market/candles?symbol=NOPEUSDT&${q}&granularity=1m`);
      expect(bad.status).to.equal(400);
      expect(at(bad.body, 'code')).to.equal('40034');
    });
  });

  describe('streams', () => {
    it('a control-plane price reaches every venue’s ticker stream within 100 ms', async () => {
      const binUrl = await open('/binance/stream?streams=btcusdt@ticker');
      const binArr = await open('/binance/stream');
      binArr.send({ method: 'SUBSCRIBE', params: ['!ticker@arr'], id: 1 });
      await binArr.waitFor((m) => at(m, 'id') === 1 && at(m, 'result') === null, { label: 'binance ack' });
      const bybit = await open('/bybit/v5/public/linear');
      bybit.send({ op: 'subscribe', args: ['tickers.BTCUSDT'], req_id: 'r1' });
      const ack = await bybit.waitFor((m) => at(m, 'op') === 'subscribe', { label: 'bybit ack' });
      expect(shapeDiff(fixture('bybit-v5/ws-subscribe-ack.json'), ack)).to.deep.equal([]);
      expect(at(ack, 'req_id')).to.equal('r1');
      const okx = await open('/okx/ws/v5/public');
      okx.send({ id: '1512', op: 'subscribe', args: [{ channel: 'tickers', instId: 'BTC-USDT-SWAP' }] });
      const okAck = await okx.waitFor((m) => at(m, 'event') === 'subscribe', { label: 'okx ack' });
      expect(shapeDiff(fixture('okx-v5/ws-subscribe-event.json'), okAck)).to.deep.equal([]);
      const bitget = await open('/bitget/v2/ws/public');
      bitget.send({ op: 'subscribe', args: [{ instType: 'USDT-FUTURES', channel: 'ticker', instId: 'BTCUSDT' }] });
      await bitget.waitFor((m) => at(m, 'event') === 'subscribe', { label: 'bitget ack' });

      const marks = [binUrl, binArr, bybit, okx, bitget].map((p) => p.mark());
      const t0 = Date.now();
      const res = await postJson(`${stack.sim.url}/__sim/price`, { symbol: 'BTC', price: 65000 });
      expect(res.status).to.equal(200);
      const frames = await Promise.all([
        binUrl.waitFor((m) => at(m, 'stream') === 'btcusdt@ticker' && num(at(m, 'data', 'c')) === 65000, {
          since: marks[0],
          label: 'binance ticker',
        }),
        binArr.waitFor(
          (m) =>
            at(m, 'stream') === '!ticker@arr' &&
            (at(m, 'data') as unknown[]).some((t) => at(t, 's') === 'BTCUSDT' && num(at(t, 'c')) === 65000),
          { since: marks[1], label: 'binance !ticker@arr' },
        ),
        bybit.waitFor((m) => at(m, 'topic') === 'tickers.BTCUSDT' && num(at(m, 'data', 'lastPrice')) === 65000, {
          since: marks[2],
          label: 'bybit tickers',
        }),
        okx.waitFor((m) => at(m, 'arg', 'channel') === 'tickers' && num(at(m, 'data', 0, 'last')) === 65000, {
          since: marks[3],
          label: 'okx tickers',
        }),
        bitget.waitFor((m) => at(m, 'arg', 'channel') === 'ticker' && num(at(m, 'data', 0, 'lastPr')) === 65000, {
          since: marks[4],
          label: 'bitget ticker',
        }),
      ]);
      expect(Date.now() - t0).to.be.below(100);
      expect(shapeDiff(BINANCE_WS_TICKER, at(frames[0], 'data'))).to.deep.equal([]);
      expect(
        shapeDiff(
          fixture('bybit-v5/ws-tickers-linear.json'),
          bybit.messages.find((m) => at(m, 'type') === 'snapshot'),
        ),
      ).to.deep.equal([]);
      expect(shapeDiff(fixture('okx-v5/ws-tickers.recorded.json'), frames[3])).to.deep.equal([]);
      expect(shapeDiff(BITGET_WS_TICKER, frames[4])).to.deep.equal([]);
      const state = await getJson(`${stack.sim.url}/__sim/state?symbol=BTCUSDT`);
      expect(at(state.body, 'prices')).to.deep.equal({ binance: 65000, bybit: 65000, okx: 65000, bitget: 65000 });
    });

    it('a past-minute candle is published closed on every venue’s kline stream', async () => {
      const bin = await open('/binance/stream');
      bin.send({ method: 'SUBSCRIBE', params: ['ethusdt@kline_1m'], id: 2 });
      const bybit = await open('/bybit/v5/public/linear');
      bybit.send({ op: 'subscribe', args: ['kline.1.ETHUSDT'] });
      const okx = await open('/okx/ws/v5/business');
      okx.send({ op: 'subscribe', args: [{ channel: 'candle1m', instId: 'ETH-USDT-SWAP' }] });
      const bitget = await open('/bitget/v2/ws/public');
      bitget.send({ op: 'subscribe', args: [{ instType: 'USDT-FUTURES', channel: 'candle1m', instId: 'ETHUSDT' }] });
      // the open candle streams first, in each venue's format
      const open1 = await bin.waitFor((m) => at(m, 'data', 'k', 'x') === false, { label: 'binance open kline' });
      expect(shapeDiff(fixture('binance-usdm/ws-kline.json'), at(open1, 'data'))).to.deep.equal([]);
      const open2 = await bybit.waitFor((m) => at(m, 'data', 0, 'confirm') === false, { label: 'bybit open kline' });
      expect(shapeDiff(fixture('bybit-v5/ws-kline.json'), open2)).to.deep.equal([]);
      const open3 = await okx.waitFor((m) => at(m, 'data', 0, 8) === '0', { label: 'okx open candle' });
      expect(shapeDiff(at(fixture('okx-v5/candles.json'), 'data', 0), at(open3, 'data', 0))).to.deep.equal([]);
      const snap = await bitget.waitFor((m) => at(m, 'action') === 'snapshot', { label: 'bitget snapshot' });
      expect(shapeDiff(BITGET_WS_CANDLE, snap)).to.deep.equal([]);

      const minute = (await currentMinute()) - 3 * MINUTE;
      const marks = [bin, bybit, okx, bitget].map((p) => p.mark());
      const res = await postJson(`${stack.sim.url}/__sim/candle`, {
        symbol: 'ETHUSDT',
        minute,
        open: 3000,
        high: 3100,
        low: 2950,
        close: 3050,
        volume: 12,
      });
      expect(res.status).to.equal(200);
      expect(at(res.body, 'kind')).to.equal('past');
      const ohlc = [3000, 3100, 2950, 3050];
      const k = await bin.waitFor((m) => at(m, 'data', 'k', 't') === minute && at(m, 'data', 'k', 'x') === true, {
        since: marks[0],
        label: 'binance closed',
      });
      expect(['o', 'h', 'l', 'c'].map((f) => num(at(k, 'data', 'k', f)))).to.deep.equal(ohlc);
      const b = await bybit.waitFor((m) => at(m, 'data', 0, 'start') === minute && at(m, 'data', 0, 'confirm') === true, {
        since: marks[1],
        label: 'bybit closed',
      });
      expect(['open', 'high', 'low', 'close'].map((f) => num(at(b, 'data', 0, f)))).to.deep.equal(ohlc);
      const o = await okx.waitFor((m) => at(m, 'data', 0, 0) === String(minute) && at(m, 'data', 0, 8) === '1', {
        since: marks[2],
        label: 'okx closed',
      });
      expect([1, 2, 3, 4].map((i) => num(at(o, 'data', 0, i)))).to.deep.equal(ohlc);
      const g = await bitget.waitFor((m) => at(m, 'action') === 'update' && at(m, 'data', 0, 0) === String(minute), {
        since: marks[3],
        label: 'bitget closed',
      });
      expect([1, 2, 3, 4].map((i) => num(at(g, 'data', 0, i)))).to.deep.equal(ohlc);

      // and history REST calls return it on every venue
      const rows = [
        at((await getJson(`${stack.sim.url}/binance/fapi/v1/klines?symbol=ETHUSDT&interval=1m&startTime=${minute}&limit=1`)).body, 0),
        at(
          (await getJson(`${stack.sim.url}/bybit/v5/market/kline?category=linear&symbol=ETHUSDT&interval=1&start=${minute}&end=${minute}`))
            .body,
          'result',
          'list',
          0,
        ),
        at(
          (await getJson(`${stack.sim.url}/okx/api/v5/market/history-candles?instId=ETH-USDT-SWAP&after=${minute + MINUTE}&limit=1`)).body,
          'data',
          0,
        ),
        at(
          (
            await getJson(
              `${stack.sim.url}/bitget/api/v2/mix/market/candles?symbol=ETHUSDT&productType=USDT-FUTURES&granularity=1m&startTime=${minute}&endTime=${minute}`,
            )
          ).body,
          'data',
          0,
        ),
      ] as unknown[][];
      for (const row of rows) {
        expect(num(row[0])).to.equal(minute);
        expect(row.slice(1, 5).map(num)).to.deep.equal(ohlc);
      }
    });

    it('bybit tickers: a snapshot, then deltas with only the changed fields', async () => {
      const bybit = await open('/bybit/v5/public/linear');
      bybit.send({ op: 'subscribe', args: ['tickers.SOLUSDT'] });
      await bybit.waitFor((m) => at(m, 'type') === 'snapshot', { label: 'snapshot' });
      const mark = bybit.mark();
      await postJson(`${stack.sim.url}/__sim/price`, { symbol: 'SOLUSDT', price: 123.456 });
      const delta = await bybit.waitFor((m) => at(m, 'type') === 'delta' && at(m, 'data', 'lastPrice') !== undefined, {
        since: mark,
        label: 'delta',
      });
      expect(at(delta, 'data', 'lastPrice')).to.equal('123.456');
      expect(at(delta, 'data', 'symbol')).to.equal('SOLUSDT');
      expect(at(delta, 'data')).to.not.have.property('fundingCap');
      expect(at(delta, 'cs')).to.be.a('number');
    });

    it('binance raw /ws streams, UNSUBSCRIBE and LIST_SUBSCRIPTIONS', async () => {
      const raw = await open('/binance/ws/xrpusdt@ticker');
      const first = await raw.waitFor((m) => at(m, 'e') === '24hrTicker', { label: 'raw ticker' });
      expect(at(first, 's')).to.equal('XRPUSDT');
      raw.send({ method: 'SUBSCRIBE', params: ['adausdt@kline_1m'], id: 5 });
      await raw.waitFor((m) => at(m, 'id') === 5, { label: 'ack' });
      raw.send({ method: 'UNSUBSCRIBE', params: ['xrpusdt@ticker'], id: 6 });
      expect(await raw.waitFor((m) => at(m, 'id') === 6, { label: 'unsub ack' })).to.deep.equal({ result: null, id: 6 });
      raw.send({ method: 'LIST_SUBSCRIPTIONS', id: 7 });
      expect(await raw.waitFor((m) => at(m, 'id') === 7, { label: 'list' })).to.deep.equal({ result: ['adausdt@kline_1m'], id: 7 });
    });

    it('answers application-level pings and reports bad subscriptions', async () => {
      const bybit = await open('/bybit/v5/public/linear');
      bybit.send({ op: 'ping', req_id: 'p1' });
      const pong = await bybit.waitFor((m) => at(m, 'op') === 'ping', { label: 'bybit pong' });
      expect(shapeDiff(fixture('bybit-v5/ws-pong.json'), pong)).to.deep.equal([]);
      expect(at(pong, 'ret_msg')).to.equal('pong');
      bybit.send({ op: 'subscribe', args: ['tickers.NOPEUSDT'] });
      expect(at(await bybit.waitFor((m) => at(m, 'op') === 'subscribe', { label: 'bybit nack' }), 'success')).to.equal(false);
      const okx = await open('/okx/ws/v5/public');
      okx.send('ping');
      await okx.waitFor((m) => m === 'pong', { label: 'okx pong' });
      okx.send({ op: 'subscribe', args: [{ channel: 'candle1m', instId: 'BTC-USDT-SWAP' }] });
      const err = await okx.waitFor((m) => at(m, 'event') === 'error', { label: 'okx wrong url' });
      expect(at(err, 'code')).to.equal('60018');
      const bitget = await open('/bitget/v2/ws/public');
      bitget.send('ping');
      await bitget.waitFor((m) => m === 'pong', { label: 'bitget pong' });
      bitget.send({ op: 'subscribe', args: [{ instType: 'USDT-FUTURES', channel: 'ticker', instId: 'NOPEUSDT' }] });
      expect(at(await bitget.waitFor((m) => at(m, 'event') === 'error', { label: 'bitget error' }), 'code')).to.equal(30001);
    });
  });
});
