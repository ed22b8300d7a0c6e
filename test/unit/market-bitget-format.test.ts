import { expect } from 'chai';
import { candleRow, contract, envelope, restTicker, wsTicker } from '../../ops/sim/venues/bitget-format.js';
import {
  bitgetMarkets,
  bitgetSubscribe,
  createBitgetCandleState,
  parseBitgetCandles,
  parseBitgetContracts,
  parseBitgetMessage,
} from '../../shared/market/venues/bitget-format.js';
import { BITGET_CANDLES, BITGET_TICKERS, BITGET_WS_CANDLE, BITGET_WS_TICKER } from '../helpers/sim-shapes.js';
import { fixture } from '../helpers/fixtures.js';
import { SIM_NOW, simModel } from '../helpers/market-sim-model.js';

const row = (t: number, close: string): string[] => [String(t), '100', '110', '90', close, '1.5', '150', '150'];
const candleFrame = (action: string, rows: string[][]): unknown => ({
  action,
  arg: { instType: 'USDT-FUTURES', channel: 'candle1m', instId: 'BTCUSDT' },
  data: rows,
  ts: 1,
});
const M = 1_700_000_040_000 - (1_700_000_040_000 % 60_000);

describe('market: Bitget v2 USDT-FUTURES parsers', () => {
  it('reads the documented ticker frame: change24h is a ratio, ts a string', () => {
    const r = parseBitgetMessage(BITGET_WS_TICKER, createBitgetCandleState());
    expect(r.ticks).to.have.length(1);
    expect(r.ticks[0]).to.include({ venue: 'bitget', symbol: 'BTCUSDT', price: 27000.5, quoteVolume24h: 10152429.961, ts: 1695715383021 });
    expect(r.ticks[0].changePct24h).to.be.closeTo(-0.002, 1e-12);
  });

  it('closes a candle when a newer openTime arrives, with its last values', () => {
    const state = createBitgetCandleState();
    expect(parseBitgetMessage(candleFrame('update', [row(M, '101')]), state).candles).to.deep.equal([
      { venue: 'bitget', symbol: 'BTCUSDT', openTime: M, open: 100, high: 110, low: 90, close: 101, volume: 1.5, closed: false },
    ]);
    expect(parseBitgetMessage(candleFrame('update', [row(M, '102')]), state).candles.map((c) => [c.close, c.closed])).to.deep.equal([
      [102, false],
    ]);
    const next = parseBitgetMessage(candleFrame('update', [row(M + 60_000, '103')]), state).candles;
    expect(next.map((c) => [c.openTime, c.close, c.closed])).to.deep.equal([
      [M, 102, true],
      [M + 60_000, 103, false],
    ]);
  });

  it('reads a row older than the open candle as closed (a rewritten past minute), and a snapshot closes only its newest past row', () => {
    const state = createBitgetCandleState();
    parseBitgetMessage(candleFrame('update', [row(M + 120_000, '1')]), state);
    expect(parseBitgetMessage(candleFrame('update', [row(M, '99')]), state).candles.map((c) => [c.openTime, c.closed])).to.deep.equal([
      [M, true],
    ]);
    const snap = parseBitgetMessage(
      candleFrame('snapshot', [row(M, '1'), row(M + 60_000, '2'), row(M + 120_000, '3'), row(M + 180_000, '4')]),
      createBitgetCandleState(),
    );
    expect(snap.candles.map((c) => [c.openTime, c.closed])).to.deep.equal([
      [M + 120_000, true],
      [M + 180_000, false],
    ]);
    expect(parseBitgetMessage(BITGET_WS_CANDLE, createBitgetCandleState()).candles[0]).to.include({
      openTime: 1695685500000,
      close: 27000.5,
      volume: 0.057,
      closed: false,
    });
  });

  it('skips malformed rows and frames', () => {
    const state = createBitgetCandleState();
    const r = parseBitgetMessage(candleFrame('update', [['x'], row(M, '5')]), state);
    expect(r.candles).to.have.length(1);
    expect(r.issues).to.have.length(1);
    expect(parseBitgetMessage({ event: 'error', code: 30001, msg: "instType:x doesn't exist" }, state).issues).to.have.length(1);
    expect(parseBitgetMessage({ event: 'subscribe', arg: {} }, state).issues).to.deep.equal([]);
    expect(parseBitgetMessage(fixture('bitget/ws-liquidation.recorded.json'), state)).to.deep.equal({ ticks: [], candles: [], issues: [] });
  });

  it('reads REST bodies from the docs examples', () => {
    expect(parseBitgetContracts(fixture('bitget/contracts.json'))).to.deep.equal([{ symbol: 'BTCUSDT', assetClass: 'crypto' }]);
    expect(bitgetMarkets(fixture('bitget/contracts.json'), BITGET_TICKERS)).to.deep.equal([
      { venue: 'bitget', symbol: 'BTCUSDT', assetClass: 'crypto', quoteVolume24h: 0 },
    ]);
    const candles = parseBitgetCandles(BITGET_CANDLES, 5, 1695836400000);
    expect(candles.map((c) => [c.openTime, c.close, c.closed])).to.deep.equal([
      [1695835800000, 26194.5, true],
      [1695836100000, 26171, true],
    ]);
    expect(() => parseBitgetContracts({ code: '40034', msg: 'Parameter symbol does not exist', data: null })).to.throw(/40034/);
  });

  it('reads the simulator frames and bodies', () => {
    const model = simModel();
    const q = model.quote('XRPUSDT', 'bitget');
    const spec = model.spec('XRPUSDT')!;
    const tick = parseBitgetMessage(
      { action: 'snapshot', arg: { instType: 'USDT-FUTURES', channel: 'ticker', instId: 'XRPUSDT' }, data: [wsTicker(q)], ts: SIM_NOW },
      createBitgetCandleState(),
    ).ticks[0];
    expect(tick).to.include({ symbol: 'XRPUSDT', price: q.last, ts: q.ts });
    expect(tick.changePct24h).to.be.closeTo(q.changePct, 1e-3);
    const rows = model.range('XRPUSDT', 'bitget', { limit: 5, anchor: 'end' }).map((c) => candleRow(spec, c, true));
    const snap = parseBitgetMessage(candleFrame('snapshot', rows), createBitgetCandleState());
    expect(snap.candles.filter((c) => c.closed)).to.have.length(1);
    const markets = bitgetMarkets(envelope([contract(spec, q.last)], SIM_NOW), envelope([restTicker(q)], SIM_NOW));
    expect(markets[0].quoteVolume24h).to.be.closeTo(q.quoteVolume24h, 0.01);
  });

  it('builds subscribe messages', () => {
    expect(JSON.parse(bitgetSubscribe(['ticker:BTCUSDT', 'candle1m:BTCUSDT']))).to.deep.equal({
      op: 'subscribe',
      args: [
        { instType: 'USDT-FUTURES', channel: 'ticker', instId: 'BTCUSDT' },
        { instType: 'USDT-FUTURES', channel: 'candle1m', instId: 'BTCUSDT' },
      ],
    });
  });
});
