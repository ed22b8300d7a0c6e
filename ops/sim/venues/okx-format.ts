/** OKX v5 SWAP bodies and channel payloads (fixtures/okx-v5). Nearly every value is a string. */
import { fmt, trim } from '../format.js';
import type { Candle, VenueQuote } from '../market-model.js';
import type { SymbolSpec } from '../symbols.js';
import type { AssetClass } from '../../../shared/engine/fees.js';

/** A listed swap: the USDT-margined one, or a coin-margined (inverse) one kept to exercise filters. */
export interface OkxContract {
  readonly instId: string;
  readonly spec: SymbolSpec;
  readonly inverse: boolean;
}

export function usdtInstId(spec: SymbolSpec): string {
  return `${spec.base}-USDT-SWAP`;
}

/** Contract size in base coin for USDT swaps (0.01 BTC, 0.1 ETH, ...), in USD for inverse ones. */
export function ctVal(k: OkxContract): number {
  if (k.inverse) return k.spec.index === 0 ? 100 : 10;
  return Math.pow(10, Math.ceil(Math.log10(100 / k.spec.startPrice)));
}

export function envelope(data: unknown, code = '0', msg = ''): Record<string, unknown> {
  return { code, msg, data };
}

/**
 * instCategory per class: "1" a coin, "3" a stock, as OKX spells them. The categories of its metal, index and
 * currency swaps are not in a sample we hold, so the sim's OKX lists none of those (okx.ts).
 */
export const OKX_CATEGORY: Readonly<Partial<Record<AssetClass, string>>> = { crypto: '1', stock: '3' };

/** `marketClosed`: a TradFi swap whose underlying market is closed is listed on state `suspend`. */
export function instrument(k: OkxContract, marketClosed = false): Record<string, unknown> {
  const { spec } = k;
  const family = k.inverse ? `${spec.base}-USD` : `${spec.base}-USDT`;
  const lot = k.inverse ? '1' : '0.01';
  return {
    alias: '',
    auctionEndTime: '',
    baseCcy: '',
    category: '1',
    contTdSwTime: '',
    ctMult: '1',
    ctType: k.inverse ? 'inverse' : 'linear',
    ctVal: trim(ctVal(k), 8),
    ctValCcy: k.inverse ? 'USD' : spec.base,
    expTime: '',
    futureSettlement: false,
    instCategory: OKX_CATEGORY[spec.assetClass] ?? '',
    instFamily: family,
    instId: k.instId,
    instIdCode: (k.inverse ? 20000 : 10000) + spec.index,
    instType: 'SWAP',
    lever: spec.index < 2 ? '100' : '50',
    listTime: String(spec.listedAt),
    lotSz: lot,
    maxIcebergSz: '100000000.0000000000000000',
    maxLmtAmt: '20000000',
    maxLmtSz: '100000000',
    maxMktAmt: '',
    maxMktSz: '20000',
    maxPlatOILmt: '',
    maxStopSz: '20000',
    maxTriggerSz: '100000000.0000000000000000',
    maxTwapSz: '100000000.0000000000000000',
    minSz: lot,
    openType: '',
    optType: '',
    posLmtAmt: '',
    posLmtPct: '',
    preMktSwTime: '',
    quoteCcy: '',
    ruleType: 'normal',
    settleCcy: k.inverse ? spec.base : 'USDT',
    state: marketClosed && k.spec.assetClass !== 'crypto' ? 'suspend' : 'live',
    stk: '',
    tickSz: trim(spec.tick, spec.priceDp),
    tradeQuoteCcyList: [],
    uly: family,
  };
}

export function ticker(q: VenueQuote, k: OkxContract): Record<string, string> {
  const dp = q.spec.priceDp;
  const size = ctVal(k);
  // vol24h counts contracts; volCcy24h is in base coin for every SWAP
  const contracts = k.inverse ? q.quoteVolume24h / size : q.volume24h / size;
  return {
    instType: 'SWAP',
    instId: k.instId,
    last: fmt(q.last, dp),
    lastSz: trim(Math.max(1, Math.round(q.lastQty / (k.inverse ? 1 : size))), 2),
    askPx: fmt(q.ask, dp),
    askSz: String(Math.round(25000 / (k.inverse ? size : q.last * size)) + 1),
    bidPx: fmt(q.bid, dp),
    bidSz: String(Math.round(20000 / (k.inverse ? size : q.last * size)) + 1),
    open24h: fmt(q.open24h, dp),
    high24h: fmt(q.high24h, dp),
    low24h: fmt(q.low24h, dp),
    volCcy24h: trim(q.volume24h, 4),
    vol24h: trim(contracts, 2),
    sodUtc0: fmt(q.openUtc0, dp),
    sodUtc8: fmt(q.openUtc8, dp),
    ts: String(q.ts),
  };
}

/** [ts, o, h, l, c, vol (contracts), volCcy (base), volCcyQuote, confirm] — nine strings. */
export function candleRow(k: OkxContract, c: Candle, confirmed: boolean): string[] {
  const dp = k.spec.priceDp;
  return [
    String(c.t),
    fmt(c.o, dp),
    fmt(c.h, dp),
    fmt(c.l, dp),
    fmt(c.c, dp),
    trim(c.v / ctVal(k), 2),
    trim(c.v, 4),
    trim(c.q, 5),
    confirmed ? '1' : '0',
  ];
}
