import { expect } from 'chai';
import { candleRow, envelope, instrument, ticker } from '../../ops/sim/venues/okx-format.js';
import * as format from '../../shared/market/venues/okx-format.js';
import { fixture } from '../helpers/fixtures.js';
import { simModel } from '../helpers/market-sim-model.js';

describe('market: OKX v5 SWAP parsers', () => {
  it('maps instrument names both ways and refuses the others', () => {
    expect(format.okxSymbol('BTC-USDT-SWAP')).to.equal('BTCUSDT');
    expect(format.okxInstId('BTCUSDT')).to.equal('BTC-USDT-SWAP');
    for (const name of ['BTC-USD-SWAP', 'BTC-USDT', 'BTC-USDT-230929', 42]) expect(format.okxSymbol(name), String(name)).to.equal(null);
  });

  it('reads a recorded tickers frame: string ts, change from open24h, quote volume = volCcy24h x last', () => {
    const r = format.parseOkxMessage(fixture('okx-v5/ws-tickers.recorded.json'));
    expect(r.issues).to.deep.equal([]);
    expect(r.ticks).to.have.length(1);
    const t = r.ticks[0];
    expect(t).to.include({ venue: 'okx', symbol: 'WNCGUSDT', price: 2.1729, ts: 1640131263109 });
    expect(t.changePct24h).to.be.closeTo((2.1729 / 2.164 - 1) * 100, 1e-9);
    expect(t.quoteVolume24h).to.be.closeTo(803940 * 2.1729, 1e-6);
  });

  it('reads candle1m rows: confirm "1" closed, "0" open; volume in base coin', () => {
    const frame = {
      arg: { channel: 'candle1m', instId: 'BTC-USDT-SWAP' },
      data: [['1747094040000', '102806.1', '102820.4', '102806.1', '102820.4', '1040.37', '10.4037', '1069603.34883', '0']],
    };
    expect(format.parseOkxMessage(frame).candles).to.deep.equal([
      {
        venue: 'okx',
        symbol: 'BTCUSDT',
        openTime: 1747094040000,
        open: 102806.1,
        high: 102820.4,
        low: 102806.1,
        close: 102820.4,
        volume: 10.4037,
        closed: false,
      },
    ]);
    frame.data[0][8] = '1';
    expect(format.parseOkxMessage(frame).candles[0].closed).to.equal(true);
    frame.data[0][8] = 'maybe';
    expect(format.parseOkxMessage(frame).issues).to.have.length(1);
  });

  it('treats events as control frames and reports errors', () => {
    expect(format.parseOkxMessage(fixture('okx-v5/ws-subscribe-event.json'))).to.deep.equal({ ticks: [], candles: [], issues: [] });
    expect(format.parseOkxMessage({ event: 'error', code: '60018', msg: 'Wrong URL or channel' }).issues).to.have.length(1);
    expect(format.parseOkxMessage({ arg: { channel: 'tickers' }, data: [{ instId: 'BTC-USDT-SWAP', last: '' }] }).issues).to.have.length(1);
  });

  it('reads REST bodies: linear USDT swaps only, candles newest first turned oldest first', () => {
    expect(format.parseOkxInstruments(fixture('okx-v5/instruments-swap.json'))).to.deep.equal([
      { symbol: 'ETHUSDT', assetClass: 'crypto' },
      { symbol: 'BTCUSDT', assetClass: 'crypto' },
    ]);
    const candles = format.parseOkxCandles(fixture('okx-v5/candles.json'));
    expect(candles.map((c) => c.openTime)).to.deep.equal([1747093980000, 1747094040000]);
    expect(candles[0]).to.include({ open: 102806, close: 102806.1, volume: 71.6404, closed: true });
    expect(format.okxMarkets(fixture('okx-v5/instruments-swap.json'), fixture('okx-v5/tickers-swap.json'))).to.deep.equal([
      { venue: 'okx', symbol: 'ETHUSDT', assetClass: 'crypto', quoteVolume24h: 0 },
      { venue: 'okx', symbol: 'BTCUSDT', assetClass: 'crypto', quoteVolume24h: 0 },
    ]);
    expect(() => format.parseOkxCandles({ code: '51001', msg: "Instrument ID doesn't exist", data: [] })).to.throw(/51001/);
    expect(format.okxBar(1440)).to.equal('1Dutc');
  });

  it('reads the simulator frames and bodies', () => {
    const model = simModel();
    const spec = model.spec('SOLUSDT')!;
    const k = { instId: 'SOL-USDT-SWAP', spec, inverse: false };
    const q = model.quote('SOLUSDT', 'okx');
    const t = format.parseOkxMessage({ arg: { channel: 'tickers', instId: k.instId }, data: [ticker(q, k)] }).ticks[0];
    expect(t).to.include({ symbol: 'SOLUSDT', price: q.last, ts: q.ts });
    expect(t.quoteVolume24h).to.be.closeTo(q.volume24h * q.last, q.volume24h * q.last * 1e-3);
    const row = candleRow(k, model.currentCandle('SOLUSDT', 'okx'), false);
    expect(format.parseOkxMessage({ arg: { channel: 'candle1m', instId: k.instId }, data: [row] }).candles[0]).to.include({
      symbol: 'SOLUSDT',
      closed: false,
    });
    const inverse = { instId: 'SOL-USD-SWAP', spec, inverse: true };
    expect(format.parseOkxInstruments(envelope([instrument(k), instrument(inverse)]))).to.deep.equal([
      { symbol: 'SOLUSDT', assetClass: 'crypto' },
    ]);
    // instCategory: "3" a stock; a category of no known class is left out
    const tsla = { instId: 'TSLA-USDT-SWAP', spec: model.spec('TSLAUSDT')!, inverse: false };
    const unknown = { ...instrument({ instId: 'JP225-USDT-SWAP', spec, inverse: false }), instCategory: '6' };
    expect(format.parseOkxInstruments(envelope([instrument(tsla), unknown]))).to.deep.equal([{ symbol: 'TSLAUSDT', assetClass: 'stock' }]);
    // the sim's OKX lists a stock whose market is closed on state suspend: listed, closed; a coin never is
    expect(format.parseOkxInstruments(envelope([instrument(tsla, true), instrument(k, true)]))).to.deep.equal([
      { symbol: 'TSLAUSDT', assetClass: 'stock', closed: true },
      { symbol: 'SOLUSDT', assetClass: 'crypto' },
    ]);
    const markets = format.okxMarkets(envelope([instrument(k)]), envelope([ticker(q, k), ticker(q, inverse)]));
    expect(markets).to.have.length(1);
    expect(markets[0].quoteVolume24h).to.be.closeTo(q.volume24h * q.last, q.volume24h * q.last * 1e-3);
  });

  it('builds subscribe messages from channel:instId topics', () => {
    expect(JSON.parse(format.okxSubscribe(['tickers:BTC-USDT-SWAP'], '9'))).to.deep.equal({
      id: '9',
      op: 'subscribe',
      args: [{ channel: 'tickers', instId: 'BTC-USDT-SWAP' }],
    });
  });
});
