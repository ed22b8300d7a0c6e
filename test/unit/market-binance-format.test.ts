import { expect } from 'chai';
import { klineEvent, klineRow, perpetual, symbolInfo, exchangeInfo, ticker24hr, tickerEvent } from '../../ops/sim/venues/binance-format.js';
import * as format from '../../shared/market/venues/binance-format.js';
import { fixture } from '../helpers/fixtures.js';
import { SIM_NOW, simModel } from '../helpers/market-sim-model.js';

describe('market: Binance USDⓈ-M parsers', () => {
  it('reads a kline frame (strings to numbers, ms times, x = closed), wrapped or raw', () => {
    const raw = fixture('binance-usdm/ws-kline.json');
    const expected = {
      venue: 'binance',
      symbol: 'BTCUSDT',
      openTime: 1638747660000,
      open: 0.001,
      high: 0.0025,
      low: 0.0015,
      close: 0.002,
      volume: 1000,
      closed: false,
    };
    expect(format.parseBinanceMessage(raw).candles).to.deep.equal([expected]);
    const wrapped = format.parseBinanceMessage({ stream: 'btcusdt@kline_1m', data: raw });
    expect(wrapped.candles).to.deep.equal([expected]);
    expect(wrapped.issues).to.deep.equal([]);
  });

  it('ignores the other streams of a recorded combined stream, and acks', () => {
    for (const frame of fixture('binance-usdm/ws-combined-stream.json') as unknown[]) {
      const r = format.parseBinanceMessage(frame);
      expect(r.ticks.length + r.candles.length + r.issues.length, JSON.stringify(frame)).to.equal(0);
    }
    expect(format.parseBinanceMessage({ result: null, id: 3 })).to.deep.equal({ ticks: [], candles: [], issues: [] });
    expect(format.parseBinanceMessage({ error: { code: 2, msg: 'Invalid request' }, id: 4 }).issues).to.have.length(1);
  });

  it('reads !ticker@arr and skips a malformed element without losing the others', () => {
    const good = { e: '24hrTicker', E: 1700000000000, s: 'ETHUSDT', c: '3500.10', P: '-1.250', q: '123456.78' };
    const r = format.parseBinanceMessage({ stream: '!ticker@arr', data: [good, { e: '24hrTicker', s: 'XUSDT', c: 'abc', E: 1 }, 'junk'] });
    expect(r.ticks).to.deep.equal([
      { venue: 'binance', symbol: 'ETHUSDT', price: 3500.1, changePct24h: -1.25, quoteVolume24h: 123456.78, ts: 1700000000000 },
    ]);
    expect(r.issues).to.have.length(2);
  });

  it('reads exchangeInfo: only trading USDT perpetuals (no quarterly BTCUSDT_220325), coins as crypto', () => {
    expect(format.parseBinanceExchangeInfo(fixture('binance-usdm/exchange-info.json'))).to.deep.equal([
      { symbol: 'BTCUSDT', assetClass: 'crypto' },
      { symbol: 'ETHUSDT', assetClass: 'crypto' },
    ]);
    expect(() => format.parseBinanceExchangeInfo({ code: -1 })).to.throw(/exchangeInfo/);
  });

  it('keeps TradFi perpetuals (TRADIFI_PERPETUAL), classed by underlyingType; leaves out what no class fits', () => {
    // the recorded row: XAUUSDT, underlyingType COMMODITY
    expect(format.parseBinanceExchangeInfo(fixture('binance-usdm/exchange-info-tradfi.json'))).to.deep.equal([
      { symbol: 'XAUUSDT', assetClass: 'metal' },
    ]);
    const [gold] = (fixture('binance-usdm/exchange-info-tradfi.json') as { symbols: Record<string, unknown>[] }).symbols;
    const row = (symbol: string, fields: Record<string, unknown>) => ({
      ...gold,
      symbol,
      pair: symbol,
      baseAsset: symbol.slice(0, -4),
      ...fields,
    });
    const info = {
      symbols: [
        row('TSLAUSDT', { underlyingType: 'EQUITY' }),
        row('SKHYNIXUSDT', { underlyingType: 'KR_EQUITY' }),
        row('SPX500USDT', { underlyingType: 'INDEX' }),
        row('EURUSDT', { underlyingType: 'FOREX' }),
        row('BTCDOMUSDT', { contractType: 'PERPETUAL', underlyingType: 'INDEX', underlyingSubType: [] }),
        row('NATGASUSDT', { underlyingType: 'COMMODITY' }),
        row('OPENAIUSDT', { underlyingType: 'PREMARKET' }),
        row('XAGUSDT', { status: 'BREAK' }),
        row('ETHBTCUSDT', { status: 'BREAK', contractType: 'PERPETUAL', underlyingType: 'COIN' }),
      ],
    };
    expect(format.parseBinanceExchangeInfo(info)).to.deep.equal([
      { symbol: 'TSLAUSDT', assetClass: 'stock' },
      { symbol: 'SKHYNIXUSDT', assetClass: 'stock' },
      { symbol: 'SPX500USDT', assetClass: 'index' },
      { symbol: 'EURUSDT', assetClass: 'forex' },
      { symbol: 'BTCDOMUSDT', assetClass: 'crypto' },
      // a TradFi contract on BREAK: listed, its underlying market closed; a coin on BREAK is not listed
      { symbol: 'XAGUSDT', assetClass: 'metal', closed: true },
    ]);
  });

  it('joins markets with 24h quote volume from ticker/24hr', () => {
    const markets = format.binanceMarkets(fixture('binance-usdm/exchange-info.json'), fixture('binance-usdm/ticker-24hr.json'));
    expect(markets).to.deep.equal([
      { venue: 'binance', symbol: 'BTCUSDT', assetClass: 'crypto', quoteVolume24h: 15.3 },
      { venue: 'binance', symbol: 'ETHUSDT', assetClass: 'crypto', quoteVolume24h: 0 },
    ]);
  });

  it('reads REST klines (mixed number/string rows, oldest first) and marks the unfinished one open', () => {
    const rows = fixture('binance-usdm/klines.json');
    const all = format.parseBinanceKlines(rows, 1616339400000);
    expect(all.map((c) => c.openTime)).to.deep.equal([1616338800000, 1616339100000]);
    expect(all[0]).to.include({ open: 57212.69, high: 57315, low: 57196.19, close: 57300, volume: 496.263, closed: true });
    expect(format.parseBinanceKlines(rows, 1616339200000)[1].closed).to.equal(false);
    expect(format.binanceInterval(60)).to.equal('1h');
    expect(format.binanceInterval(7)).to.equal(undefined);
  });

  it('reads the simulator frames and bodies', () => {
    const model = simModel();
    const q = model.quote('BTCUSDT', 'binance');
    const tick = format.parseBinanceMessage({ stream: '!ticker@arr', data: [tickerEvent(q)] }).ticks[0];
    expect(tick).to.include({ venue: 'binance', symbol: 'BTCUSDT', price: q.last, ts: q.ts });
    expect(tick.quoteVolume24h).to.be.closeTo(q.quoteVolume24h, 0.01);
    const spec = model.spec('BTCUSDT')!;
    const kline = format.parseBinanceMessage({
      stream: 'btcusdt@kline_1m',
      data: klineEvent(spec, model.currentCandle('BTCUSDT', 'binance'), true, SIM_NOW),
    });
    expect(kline.candles[0]).to.include({ symbol: 'BTCUSDT', closed: true });
    const contracts = [perpetual(spec), { ...perpetual(spec), name: 'BTCUSDT_250328', contractType: 'CURRENT_QUARTER' as const }];
    const info = exchangeInfo(
      SIM_NOW,
      contracts.map((k) => symbolInfo(k, q.last)),
    );
    expect(format.parseBinanceExchangeInfo(info)).to.deep.equal([{ symbol: 'BTCUSDT', assetClass: 'crypto' }]);
    // the sim's TradFi rows carry the same metadata as the recorded one
    const gold = model.spec('XAUUSDT')!;
    const tsla = model.spec('TSLAUSDT')!;
    const tradfi = exchangeInfo(SIM_NOW, [symbolInfo(perpetual(gold), 4000), symbolInfo(perpetual(tsla), 430)]);
    expect(format.parseBinanceExchangeInfo(tradfi)).to.deep.equal([
      { symbol: 'XAUUSDT', assetClass: 'metal' },
      { symbol: 'TSLAUSDT', assetClass: 'stock' },
    ]);
    expect((tradfi.symbols as Record<string, unknown>[])[0]).to.include({ contractType: 'TRADIFI_PERPETUAL', underlyingType: 'COMMODITY' });
    expect(format.binanceMarkets(info, [ticker24hr(q, perpetual(spec))])[0].quoteVolume24h).to.be.closeTo(q.quoteVolume24h, 0.01);
    const history = model.range('BTCUSDT', 'binance', { limit: 3, anchor: 'end' });
    expect(
      format
        .parseBinanceKlines(
          history.map((c) => klineRow(spec, c)),
          SIM_NOW,
        )
        .map((c) => c.openTime),
    ).to.deep.equal(history.map((c) => c.t));
  });

  it('builds SUBSCRIBE messages', () => {
    expect(JSON.parse(format.binanceSubscribe(['!ticker@arr', 'btcusdt@kline_1m'], 7))).to.deep.equal({
      method: 'SUBSCRIBE',
      params: ['!ticker@arr', 'btcusdt@kline_1m'],
      id: 7,
    });
    expect(JSON.parse(format.binanceSubscribe(['x'], 8, true)).method).to.equal('UNSUBSCRIBE');
  });
});
