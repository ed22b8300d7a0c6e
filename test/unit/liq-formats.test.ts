import { expect } from 'chai';
import { parseBinanceLiquidations } from '../../shared/derivatives/liquidations/formats/binance.js';
import { parseBitfinexLiquidations } from '../../shared/derivatives/liquidations/formats/bitfinex.js';
import { parseBitgetLiquidations } from '../../shared/derivatives/liquidations/formats/bitget.js';
import { BitmexOrderTimes, parseBitmexInstruments, parseBitmexLiquidations } from '../../shared/derivatives/liquidations/formats/bitmex.js';
import { parseBybitLiquidations } from '../../shared/derivatives/liquidations/formats/bybit.js';
import { parseDeribitLiquidations } from '../../shared/derivatives/liquidations/formats/deribit.js';
import { parseGateLiquidations, parseGateMultipliers } from '../../shared/derivatives/liquidations/formats/gate.js';
import { htxPong, parseHtxLiquidations } from '../../shared/derivatives/liquidations/formats/htx.js';
import { parseOkxContractValues, parseOkxLiquidations } from '../../shared/derivatives/liquidations/formats/okx.js';
import { publicEvent, type LiquidationEvent } from '../../shared/derivatives/liquidations/liquidation-event.js';
import { fixture } from '../helpers/fixtures.js';

const frames = (path: string): unknown[] => {
  const body = fixture(path);
  return Array.isArray(body) && !Array.isArray(body[0]) && typeof body[0] === 'object' ? body : [body];
};
const plain = (events: LiquidationEvent[]): LiquidationEvent[] => events.map(publicEvent);

describe('liquidation formats: each exchange to the normalized event', () => {
  it('binance forceOrder: S is the liquidation order side, so SELL = a long liquidated (fixture), raw or combined', () => {
    const frame = fixture('binance-usdm/ws-force-order.json');
    const expected = {
      ts: 1568014460893,
      exchange: 'binance',
      symbol: 'BTCUSDT',
      side: 'long_liquidated',
      price: 9910,
      qty: 0.014,
      notional: 138.74,
    };
    expect(plain(parseBinanceLiquidations(frame).events)).to.deep.equal([expected]);
    const wrapped = parseBinanceLiquidations({ stream: '!forceOrder@arr', data: frame });
    expect(plain(wrapped.events)).to.deep.equal([expected]);
    const buy = structuredClone(frame) as { o: Record<string, unknown> };
    buy.o.S = 'BUY';
    expect(parseBinanceLiquidations(buy).events[0].side).to.equal('short_liquidated');
    // an order that is not filled yet counts its quantity at its price
    expect(
      parseBinanceLiquidations({ e: 'forceOrder', E: 1, o: { s: 'ETHUSDC', S: 'SELL', q: '2', p: '3000', ap: '0', z: '0', T: 5 } })
        .events[0],
    ).to.include({ symbol: 'ETHUSDT', qty: 2, notional: 6000 });
    expect(parseBinanceLiquidations({ result: null, id: 1 }).events).to.deep.equal([]);
  });

  it('bybit allLiquidation: S is the position side, so Sell = a short liquidated (fixtures: docs and recorded)', () => {
    expect(plain(parseBybitLiquidations(fixture('bybit-v5/ws-all-liquidation.json')).events)).to.deep.equal([
      { ts: 1739502302929, exchange: 'bybit', symbol: 'ROSEUSDT', side: 'short_liquidated', price: 0.04499, qty: 20000, notional: 899.8 },
    ]);
    const [pippin, xrpInverse] = frames('bybit-v5/ws-liquidation.recorded.json').map((f) => parseBybitLiquidations(f).events[0]);
    expect(publicEvent(pippin)).to.deep.equal({
      ts: 1740480207110,
      exchange: 'bybit',
      symbol: 'PIPPINUSDT',
      side: 'short_liquidated',
      price: 0.02456,
      qty: 2846,
      notional: 69.9,
    });
    // retired liquidation.<SYM> on an inverse contract: size is USD
    expect(publicEvent(xrpInverse)).to.deep.equal({
      ts: 1680673944093,
      exchange: 'bybit',
      symbol: 'XRPUSDT',
      side: 'short_liquidated',
      price: 0.5149,
      qty: 13495.82443193,
      notional: 6949,
    });
    const buy = parseBybitLiquidations({ topic: 'allLiquidation.BTCUSDT', data: [{ T: 1, s: 'BTCUSDT', S: 'Buy', v: '0.5', p: '50000' }] });
    expect(buy.events[0]).to.include({ side: 'long_liquidated', notional: 25000 });
  });

  it('okx liquidation-orders: posSide is the liquidated position, sz contracts of ctVal (fixtures)', () => {
    const contracts = parseOkxContractValues(fixture('okx-v5/instruments-swap.json'));
    expect(contracts.get('BTC-USDT-SWAP')).to.deep.equal({ ctVal: 0.01, inverse: false });
    expect(contracts.get('BTC-USD-SWAP')).to.deep.equal({ ctVal: 100, inverse: true });
    contracts.set('IOST-USDT-SWAP', { ctVal: 1000, inverse: false });
    contracts.set('XRP-USD-230929', { ctVal: 100, inverse: true });
    expect(plain(parseOkxLiquidations(fixture('okx-v5/ws-liquidation-orders.json'), contracts).events)).to.deep.equal([
      { ts: 1692266434010, exchange: 'okx', symbol: 'IOSTUSDT', side: 'short_liquidated', price: 0.007831, qty: 13000, notional: 101.8 },
    ]);
    expect(plain(parseOkxLiquidations(fixture('okx-v5/ws-liquidation-orders.recorded.json'), contracts).events)).to.deep.equal([
      {
        ts: 1680173247614,
        exchange: 'okx',
        symbol: 'XRPUSDT',
        side: 'short_liquidated',
        price: 0.55205,
        qty: 7064.57748392,
        notional: 3900,
      },
    ]);
    // net mode: no long/short posSide, the order side decides (a sell closes a long)
    const net = {
      arg: { channel: 'liquidation-orders', instType: 'SWAP' },
      data: [{ instId: 'BTC-USDT-SWAP', details: [{ side: 'sell', posSide: 'net', sz: '50', bkPx: '50000', ts: '7' }] }],
    };
    expect(parseOkxLiquidations(net, contracts).events[0]).to.include({ side: 'long_liquidated', qty: 0.5, notional: 25000 });
    const unknown = parseOkxLiquidations({ ...net, data: [{ ...net.data[0], instId: 'NEW-USDT-SWAP' }] }, contracts);
    expect(unknown.events).to.deep.equal([]);
    expect(unknown.issues[0]).to.contain('no contract value');
  });

  it('bitget v3 liquidation: side is the position side, buy = a long liquidated (recorded fixture)', () => {
    expect(plain(parseBitgetLiquidations(fixture('bitget/ws-liquidation.recorded.json')).events)).to.deep.equal([
      { ts: 1777358886549, exchange: 'bitget', symbol: 'APEUSDT', side: 'long_liquidated', price: 0.1649, qty: 13.70319, notional: 2.26 },
      {
        ts: 1777358876983,
        exchange: 'bitget',
        symbol: 'IPUSDT',
        side: 'long_liquidated',
        price: 0.500280739469,
        qty: 143.33043186,
        notional: 71.71,
      },
    ]);
  });

  it('gate public_liquidates: negative size = a forced sell = a long liquidated; quanto_multiplier sizes USDT contracts', () => {
    // the docs example is the BTC-settled BTC_USD contract: 1 USD per contract
    expect(plain(parseGateLiquidations(fixture('gate-futures/ws-public-liquidates.json'), new Map()).events)).to.deep.equal([
      { ts: 1541486601123, exchange: 'gate', symbol: 'BTCUSDT', side: 'long_liquidated', price: 215.1, qty: 0.57647606, notional: 124 },
    ]);
    const multipliers = parseGateMultipliers([
      { name: 'BTC_USDT', quanto_multiplier: '0.0001' },
      { name: 'ETH_USDT', quanto_multiplier: '0.01' },
    ]);
    const update = {
      channel: 'futures.public_liquidates',
      event: 'update',
      result: [{ price: 50000, size: 5000, time_ms: 1541486601123, contract: 'BTC_USDT' }],
    };
    expect(publicEvent(parseGateLiquidations(update, multipliers).events[0])).to.deep.equal({
      ts: 1541486601123,
      exchange: 'gate',
      symbol: 'BTCUSDT',
      side: 'short_liquidated',
      price: 50000,
      qty: 0.5,
      notional: 25000,
    });
    expect(parseGateLiquidations(fixture('gate-futures/ws-subscribe-ack.json'), multipliers)).to.deep.equal({ events: [], issues: [] });
  });

  it('bitmex liquidation table: side is the order side (Buy = a short liquidated), counted on insert, once per orderID', () => {
    const instruments = parseBitmexInstruments([
      { symbol: 'XBTUSD', underlying: 'XBT', isInverse: true, isQuanto: false, multiplier: -100000000, markPrice: 10000 },
      { symbol: 'XBTUSDT', underlying: 'XBT', isInverse: false, isQuanto: false, multiplier: 1, underlyingToPositionMultiplier: 1000000 },
      { symbol: 'ETHUSD', underlying: 'ETH', isInverse: false, isQuanto: true, multiplier: 100 },
    ]);
    const times = new BitmexOrderTimes();
    const [insert, remove] = frames('bitmex/ws-liquidation.recorded.json');
    const first = parseBitmexLiquidations(insert, instruments, times, 1_000);
    expect(plain(first.events)).to.deep.equal([
      { ts: 1_000, exchange: 'bitmex', symbol: 'BTCUSDT', side: 'short_liquidated', price: 10106, qty: 0.9117356, notional: 9214 },
    ]);
    expect(first.events[0].id).to.equal('bitmex|dd9cea25-207c-0dab-15b5-b88da776f500');
    // the same order in a later partial keeps its id and first time
    const replay = parseBitmexLiquidations({ ...(insert as object), action: 'partial' }, instruments, times, 9_000);
    expect(replay.events[0]).to.include({ id: first.events[0].id, ts: 1_000 });
    expect(parseBitmexLiquidations(remove, instruments, times, 2_000).events).to.deep.equal([]);
    const linear = parseBitmexLiquidations(
      {
        table: 'liquidation',
        action: 'insert',
        data: [{ orderID: 'b', symbol: 'XBTUSDT', side: 'Sell', price: 50000, leavesQty: 500000 }],
      },
      instruments,
      times,
      1,
    );
    expect(linear.events[0]).to.include({ side: 'long_liquidated', qty: 0.5, notional: 25000 });
    // quanto: 100 satoshi x price per contract, valued at the XBT price
    const quanto = parseBitmexLiquidations(
      { table: 'liquidation', action: 'insert', data: [{ orderID: 'c', symbol: 'ETHUSD', side: 'Sell', price: 2000, leavesQty: 1000 }] },
      instruments,
      times,
      1,
    );
    expect(quanto.events[0]).to.include({ symbol: 'ETHUSDT', notional: 20000, qty: 10 });
  });

  it('deribit trades: liquidation T = the taker liquidated (its order side is direction), M = the maker (the opposite order side) (recorded fixture)', () => {
    const [taker, maker] = frames('deribit/ws-trades-liquidation.recorded.json').map((f) => parseDeribitLiquidations(f).events);
    expect(plain(taker)).to.deep.equal([
      {
        ts: 1584058044032,
        exchange: 'deribit',
        symbol: 'BTCUSDT',
        side: 'long_liquidated',
        price: 4469.5,
        qty: 0.25058731,
        notional: 1120,
      },
    ]);
    expect(plain(maker)).to.deep.equal([
      { ts: 1584058067675, exchange: 'deribit', symbol: 'BTCUSDT', side: 'long_liquidated', price: 4458.5, qty: 0.5607267, notional: 2500 },
    ]);
    const both = parseDeribitLiquidations({
      method: 'subscription',
      params: {
        channel: 'trades.future.USDC.100ms',
        data: [
          {
            trade_id: 'x1',
            timestamp: 5,
            price: 150,
            instrument_name: 'SOL_USDC-PERPETUAL',
            direction: 'buy',
            amount: 10,
            liquidation: 'MT',
          },
        ],
      },
    });
    expect(both.events.map((e) => [e.id, e.side, e.qty, e.notional])).to.deep.equal([
      ['deribit|x1|T', 'short_liquidated', 10, 1500],
      ['deribit|x1|M', 'long_liquidated', 10, 1500],
    ]);
  });

  it('htx liquidation_orders: direction is the order side (sell = a long liquidated); coin-margined volume in 100 USD contracts (recorded fixture)', () => {
    const [ack, linear, coin] = frames('htx/ws-liquidation-orders.recorded.json').map((f) => parseHtxLiquidations(f).events);
    expect(ack).to.deep.equal([]);
    expect(plain(linear)).to.deep.equal([
      { ts: 1608226502284, exchange: 'htx', symbol: 'BTCUSDT', side: 'long_liquidated', price: 23350.5, qty: 0.227, notional: 5300.56 },
    ]);
    expect(plain(coin)).to.deep.equal([
      {
        ts: 1593561769833,
        exchange: 'htx',
        symbol: 'BTCUSDT',
        side: 'long_liquidated',
        price: 9062.71,
        qty: 15.99962925,
        notional: 145000,
      },
    ]);
    expect(htxPong('{"op":"ping","ts":"1492420473027"}')).to.equal('{"op":"pong","ts":"1492420473027"}');
    expect(htxPong('{"op":"notify"}')).to.equal(undefined);
  });

  it('bitfinex liq:global (the ninth exchange): AMOUNT is the position, positive = a long liquidated, one event per POS_ID (recorded fixture)', () => {
    const [subscribed, update] = frames('bitfinex/ws-liquidations.recorded.json');
    expect(parseBitfinexLiquidations(subscribed).events).to.deep.equal([]);
    const events = parseBitfinexLiquidations(update).events;
    expect(plain(events)).to.deep.equal([
      {
        ts: 1593522802742,
        exchange: 'bitfinex',
        symbol: 'BTCUSDT',
        side: 'long_liquidated',
        price: 9080,
        qty: 0.00268657,
        notional: 24.39,
      },
    ]);
    expect(events[0].id).to.equal('bitfinex|143683674');
    const short = parseBitfinexLiquidations([1, ['pos', 7, 5, null, 'tETHF0:USTF0', -2, 3000, null, 1, 1, null, 3100]]);
    expect(short.events[0]).to.include({ symbol: 'ETHUSDT', side: 'short_liquidated', qty: 2, price: 3100 });
    expect(parseBitfinexLiquidations([1, 'hb']).events).to.deep.equal([]);
  });

  it('never throws on junk and reports what it skipped', () => {
    const junk = [
      null,
      1,
      'x',
      [],
      {},
      { e: 'forceOrder' },
      { topic: 'allLiquidation.X', data: [null, { S: 'Buy' }] },
      { table: 'liquidation', action: 'insert', data: [{}] },
    ];
    for (const msg of junk) {
      for (const parse of [
        parseBinanceLiquidations,
        parseBybitLiquidations,
        parseBitgetLiquidations,
        parseDeribitLiquidations,
        parseHtxLiquidations,
        parseBitfinexLiquidations,
        (m: unknown) => parseOkxLiquidations(m, new Map()),
        (m: unknown) => parseGateLiquidations(m, new Map()),
        (m: unknown) => parseBitmexLiquidations(m, { bySymbol: new Map(), xbtUsd: undefined }, new BitmexOrderTimes(), 1),
      ]) {
        expect(() => parse(msg)).to.not.throw();
        expect(parse(msg).events).to.deep.equal([]);
      }
    }
    expect(parseBybitLiquidations({ topic: 'allLiquidation.X', data: [{ S: 'Buy' }] }).issues).to.have.length(1);
  });
});
