import { expect } from 'chai';
import { envelope, instrument, klineRow, restTicker, tickerDelta, wsKline, wsTicker } from '../../ops/sim/venues/bybit-format.js';
import * as format from '../../shared/market/venues/bybit-format.js';
import { fixture } from '../helpers/fixtures.js';
import { SIM_NOW, simModel } from '../helpers/market-sim-model.js';

describe('market: Bybit v5 linear parsers', () => {
  it('reads a tickers snapshot: price24hPcnt is a ratio, turnover24h the quote volume, ts a number', () => {
    const state = format.createBybitTickerState();
    const r = format.parseBybitMessage(fixture('bybit-v5/ws-tickers-linear.json'), state);
    expect(r.ticks).to.have.length(1);
    expect(r.ticks[0]).to.include({
      venue: 'bybit',
      symbol: 'BTCUSDT',
      price: 66666.6,
      quoteVolume24h: 4936790807.6521,
      ts: 1760325052630,
    });
    expect(r.ticks[0].changePct24h).to.be.closeTo(-15.8315, 1e-9);
  });

  it('merges deltas into the last state: a delta with only other fields keeps the price', () => {
    const state = format.createBybitTickerState();
    format.parseBybitMessage(fixture('bybit-v5/ws-tickers-linear.json'), state);
    const onlyFunding = format.parseBybitMessage(
      { topic: 'tickers.BTCUSDT', type: 'delta', data: { symbol: 'BTCUSDT', fundingRate: '0.0001' }, cs: 1, ts: 1760325053000 },
      state,
    );
    expect(onlyFunding.ticks[0]).to.include({ price: 66666.6, ts: 1760325053000 });
    expect(onlyFunding.ticks[0].quoteVolume24h).to.equal(4936790807.6521);
    const newPrice = format.parseBybitMessage(
      {
        topic: 'tickers.BTCUSDT',
        type: 'delta',
        data: { symbol: 'BTCUSDT', lastPrice: '67000.5', price24hPcnt: '0.01' },
        cs: 2,
        ts: 1760325054000,
      },
      state,
    );
    expect(newPrice.ticks[0]).to.include({ price: 67000.5, changePct24h: 1, ts: 1760325054000 });
    const fresh = format.createBybitTickerState();
    const early = format.parseBybitMessage(
      { topic: 'tickers.ETHUSDT', type: 'delta', data: { symbol: 'ETHUSDT', fundingRate: '0.0001' }, ts: 1 },
      fresh,
    );
    expect(early.ticks).to.deep.equal([]);
    expect(early.issues).to.deep.equal([]);
  });

  it('reads kline frames: confirm is the closed flag, start in ms', () => {
    const frame = fixture('bybit-v5/ws-kline.json') as Record<string, unknown>;
    const one = { ...frame, topic: 'kline.1.BTCUSDT' };
    expect(format.parseBybitMessage(one, format.createBybitTickerState()).candles).to.deep.equal([
      {
        venue: 'bybit',
        symbol: 'BTCUSDT',
        openTime: 1672324800000,
        open: 16649.5,
        high: 16677,
        low: 16608,
        close: 16677,
        volume: 2.081,
        closed: false,
      },
    ]);
    expect(format.parseBybitMessage(frame, format.createBybitTickerState()).candles, '5-minute topic').to.deep.equal([]);
    const bad = format.parseBybitMessage({ topic: 'kline.1.BTCUSDT', data: [{ start: 'x' }] }, format.createBybitTickerState());
    expect(bad.candles).to.deep.equal([]);
    expect(bad.issues).to.have.length(1);
  });

  it('treats op replies as control frames and reports refusals', () => {
    const state = format.createBybitTickerState();
    expect(format.parseBybitMessage(fixture('bybit-v5/ws-subscribe-ack.json'), state)).to.deep.equal({
      ticks: [],
      candles: [],
      issues: [],
    });
    expect(format.parseBybitMessage(fixture('bybit-v5/ws-pong.json'), state).issues).to.deep.equal([]);
    expect(format.parseBybitMessage({ success: false, ret_msg: 'error:handler not found', op: 'subscribe' }, state).issues).to.have.length(
      1,
    );
    expect(format.parseBybitMessage('nope', state).issues).to.have.length(1);
  });

  it('reads REST bodies: instruments filter, klines newest first turned oldest first', () => {
    expect(format.parseBybitInstruments(fixture('bybit-v5/instruments-info-linear.json'))).to.deep.equal({
      symbols: [{ symbol: 'BTCUSDT', assetClass: 'crypto' }],
      nextCursor: '',
    });
    const klines = format.parseBybitKlines(fixture('bybit-v5/kline.json'), 60, 1670612400000);
    expect(klines.map((c) => c.openTime)).to.deep.equal([1670601600000, 1670605200000, 1670608800000]);
    expect(klines[2]).to.include({ open: 17071, close: 17055.5, closed: true });
    expect(format.parseBybitKlines(fixture('bybit-v5/kline.json'), 60, 1670610000000)[2].closed).to.equal(false);
    expect(() => format.parseBybitInstruments({ retCode: 10001, retMsg: 'params error', result: {} })).to.throw(/10001/);
    expect(format.bybitInterval(1440)).to.equal('D');
  });

  it('classes TradFi perpetuals by symbolType (stock, ETF, commodity metals, forex); leaves out what no class fits', () => {
    // the docs example row with symbolType as Bybit spells its TradFi types
    const body = fixture('bybit-v5/instruments-info-linear.json') as { result: { list: Record<string, unknown>[] } };
    const [btc] = body.result.list;
    const row = (symbol: string, symbolType: string) => ({ ...btc, symbol, baseCoin: symbol.slice(0, -4), symbolType });
    const list = [
      row('AAPLUSDT', 'stock'),
      row('SPYUSDT', 'ETF'),
      row('XAUUSDT', 'commodity'),
      row('BZUSDT', 'commodity'),
      row('EURUSDT', 'forex'),
      row('CAPUSDT', 'innovation'),
      row('NEWKINDUSDT', 'bond'),
    ];
    expect(format.parseBybitInstruments({ ...body, result: { ...body.result, list } }).symbols).to.deep.equal([
      { symbol: 'AAPLUSDT', assetClass: 'stock' },
      { symbol: 'SPYUSDT', assetClass: 'stock' },
      { symbol: 'XAUUSDT', assetClass: 'metal' },
      { symbol: 'EURUSDT', assetClass: 'forex' },
      { symbol: 'CAPUSDT', assetClass: 'crypto' },
    ]);
  });

  it('reads the simulator frames and bodies (snapshot, then deltas)', () => {
    const model = simModel();
    const spec = model.spec('ETHUSDT')!;
    const q = model.quote('ETHUSDT', 'bybit');
    const state = format.createBybitTickerState();
    const first = wsTicker(q, undefined);
    expect(
      format.parseBybitMessage({ topic: 'tickers.ETHUSDT', type: 'snapshot', data: first, cs: 1, ts: SIM_NOW }, state).ticks[0],
    ).to.include({
      price: q.last,
    });
    model.setPrice('ETHUSDT', 3600.5);
    const next = wsTicker(model.quote('ETHUSDT', 'bybit'), first);
    const delta = tickerDelta(first, next)!;
    const tick = format.parseBybitMessage({ topic: 'tickers.ETHUSDT', type: 'delta', data: delta, cs: 2, ts: SIM_NOW + 1 }, state).ticks[0];
    expect(tick.price).to.be.closeTo(3600.5, 0.01);
    expect(tick.quoteVolume24h).to.be.closeTo(q.quoteVolume24h, 0.01);
    const closed = format.parseBybitMessage(wsKline(spec, model.currentCandle('ETHUSDT', 'bybit'), true, SIM_NOW), state).candles[0];
    expect(closed).to.include({ symbol: 'ETHUSDT', closed: true });
    const instruments = envelope(
      {
        category: 'linear',
        list: [instrument({ name: 'ETHUSDT', spec, settle: 'USDT' }, 3600), instrument({ name: 'ETHPERP', spec, settle: 'USDC' }, 3600)],
        nextPageCursor: 'abc',
      },
      SIM_NOW,
    );
    const parsed = format.parseBybitInstruments(instruments);
    expect(parsed).to.deep.equal({ symbols: [{ symbol: 'ETHUSDT', assetClass: 'crypto' }], nextCursor: 'abc' });
    const gold = model.spec('XAUUSDT')!;
    const metal = envelope({ category: 'linear', list: [instrument({ name: 'XAUUSDT', spec: gold, settle: 'USDT' }, 4000)] }, SIM_NOW);
    expect(format.parseBybitInstruments(metal).symbols).to.deep.equal([{ symbol: 'XAUUSDT', assetClass: 'metal' }]);
    const markets = format.bybitMarkets(parsed.symbols, envelope({ category: 'linear', list: [restTicker(q, 'ETHUSDT')] }, SIM_NOW));
    expect(markets[0].quoteVolume24h).to.be.closeTo(q.quoteVolume24h, 0.01);
    const rows = model
      .range('ETHUSDT', 'bybit', { limit: 3, anchor: 'end' })
      .reverse()
      .map((c) => klineRow(spec, c));
    const candles = format.parseBybitKlines(envelope({ symbol: 'ETHUSDT', category: 'linear', list: rows }, SIM_NOW), 1, SIM_NOW);
    expect(candles.map((c) => c.openTime)).to.deep.equal([...rows].reverse().map((r) => Number(r[0])));
  });

  it('builds subscribe messages', () => {
    expect(JSON.parse(format.bybitSubscribe(['tickers.BTCUSDT', 'kline.1.BTCUSDT'], '5'))).to.deep.equal({
      req_id: '5',
      op: 'subscribe',
      args: ['tickers.BTCUSDT', 'kline.1.BTCUSDT'],
    });
  });
});
