import { expect } from 'chai';
import fc from 'fast-check';
import { ASSET_CLASSES, type AssetClass } from '../../shared/engine/fees.js';
import { listingState, type StatusVenue } from '../../shared/market/venue-status.js';
import { parseBinanceExchangeInfo } from '../../shared/market/venues/binance-format.js';
import { parseBybitInstruments } from '../../shared/market/venues/bybit-format.js';
import { parseOkxInstruments } from '../../shared/market/venues/okx-format.js';
import { fixture } from '../helpers/fixtures.js';

/** Every status value each venue's docs name (test/fixtures/README.md), and what it means here for a coin and a TradFi contract. */
const DOCUMENTED: Readonly<Record<StatusVenue, Record<string, [coin: string | null, tradfi: string | null]>>> = {
  binance: {
    TRADING: ['trading', 'trading'],
    BREAK: [null, 'closed'],
    PENDING_TRADING: [null, null],
    PRE_DELIVERING: [null, null],
    PRE_SETTLE: [null, null],
    SETTLING: [null, null],
    DELIVERING: [null, null],
    DELIVERED: [null, null],
    CLOSE: [null, null],
  },
  bybit: {
    Trading: ['trading', 'trading'],
    PreLaunch: [null, null],
    Settling: [null, null],
    Delivering: [null, null],
    Closed: [null, null],
  },
  okx: { live: ['trading', 'trading'], suspend: [null, 'closed'], preopen: [null, null], test: [null, null] },
};
const VENUES = Object.keys(DOCUMENTED) as StatusVenue[];
const TRADFI = ASSET_CLASSES.filter((c) => c !== 'crypto');

describe('market: venue status -> listed, closed or left out (pure)', () => {
  it('reads each documented status of each venue: trading, a TradFi market closed, or not listed', () => {
    for (const venue of VENUES) {
      for (const [status, [coin, tradfi]] of Object.entries(DOCUMENTED[venue])) {
        expect(listingState(venue, status, 'crypto'), `${venue} ${status} coin`).to.equal(coin);
        for (const cls of TRADFI) expect(listingState(venue, status, cls), `${venue} ${status} ${cls}`).to.equal(tradfi);
      }
    }
  });

  it('never closes a coin, lists nothing on a status the venue does not document, and matches case exactly', () => {
    const cls = fc.constantFrom<AssetClass>(...ASSET_CLASSES);
    fc.assert(
      fc.property(
        fc.constantFrom(...VENUES),
        fc.oneof(fc.string(), fc.constant(undefined), fc.integer()),
        cls,
        (venue, status, assetClass) => {
          const state = listingState(venue, status, assetClass);
          if (assetClass === 'crypto' && state === 'closed') return false;
          const documented = typeof status === 'string' && status in DOCUMENTED[venue];
          return documented || state === null;
        },
      ),
    );
    expect(listingState('bybit', 'trading', 'crypto')).to.equal(null);
    expect(listingState('okx', 'Suspend', 'stock')).to.equal(null);
  });

  it('Bybit: the docs pre-market row is not listed; a TradFi row on Trading trades (Bybit has no closed status for one)', () => {
    expect(parseBybitInstruments(fixture('bybit-v5/instruments-info-prelaunch.json')).symbols).to.deep.equal([]);
    const body = fixture('bybit-v5/instruments-info-linear.json') as { result: { list: Record<string, unknown>[] } };
    const [btc] = body.result.list;
    const list = ['Trading', 'Settling', 'Delivering', 'Closed', 'PreLaunch'].map((status, i) => ({
      ...btc,
      symbol: `STOCK${i}USDT`,
      symbolType: 'stock',
      status,
    }));
    expect(parseBybitInstruments({ ...body, result: { ...body.result, list } }).symbols).to.deep.equal([
      { symbol: 'STOCK0USDT', assetClass: 'stock' },
    ]);
  });

  it('OKX: a TradFi swap on suspend is listed closed; a coin on suspend, and preopen and test rows, are not listed', () => {
    // the recorded ETH-USDT-SWAP row, its state and instCategory varied (OKX's TradFi swaps: instCategory 3)
    const body = fixture('okx-v5/instruments-swap.json') as { data: Record<string, unknown>[] };
    const eth = body.data.find((i) => i.instId === 'ETH-USDT-SWAP')!;
    const row = (instId: string, instCategory: string, state: string) => ({ ...eth, instId, instCategory, state });
    const data = [
      row('TSLA-USDT-SWAP', '3', 'suspend'),
      row('NVDA-USDT-SWAP', '3', 'live'),
      row('AAPL-USDT-SWAP', '3', 'preopen'),
      row('MSFT-USDT-SWAP', '3', 'test'),
      row('ETH-USDT-SWAP', '1', 'suspend'),
    ];
    expect(parseOkxInstruments({ ...body, data })).to.deep.equal([
      { symbol: 'TSLAUSDT', assetClass: 'stock', closed: true },
      { symbol: 'NVDAUSDT', assetClass: 'stock' },
    ]);
  });

  it('Binance: BREAK closes the recorded TradFi row; the same row on SETTLING or PENDING_TRADING is not listed', () => {
    const body = fixture('binance-usdm/exchange-info-tradfi.json') as { symbols: Record<string, unknown>[] };
    const [xau] = body.symbols;
    const symbols = ['BREAK', 'SETTLING', 'PENDING_TRADING'].map((status) => ({ ...xau, status }));
    expect(parseBinanceExchangeInfo({ ...body, symbols })).to.deep.equal([{ symbol: 'XAUUSDT', assetClass: 'metal', closed: true }]);
  });
});
