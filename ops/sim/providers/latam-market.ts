/**
 * The simulated Latin American market behind the CriptoYa, AwesomeAPI, PTAX, Mercado Bitcoin and
 * Foxbit modules. Argentina: a fixed book of USDT/ARS venues (one P2P venue with no offer on one
 * side, one venue far off the others) and fixed reference dollars. Brazil: BTC/BRL follows the
 * sim's BTCUSDT price x USD_BRL with a premium and a half-spread per venue.
 */
import type { MarketModel } from '../market-model.js';

export interface ArsVenue {
  ask: number;
  totalAsk: number;
  bid: number;
  totalBid: number;
}

/** USDT in pesos; totalAsk/totalBid are the fee-inclusive prices (ripio and buenbit charge a fee). */
export const USDT_ARS: Readonly<Record<string, ArsVenue>> = {
  lemoncash: { ask: 1210, totalAsk: 1210, bid: 1190, totalBid: 1190 },
  buenbit: { ask: 1205, totalAsk: 1211.03, bid: 1188, totalBid: 1182.06 },
  ripio: { ask: 1208.5, totalAsk: 1214.54, bid: 1187, totalBid: 1181.07 },
  belo: { ask: 1212, totalAsk: 1212, bid: 1192, totalBid: 1192 },
  fiwind: { ask: 1206, totalAsk: 1206, bid: 1186, totalBid: 1186 },
  letsbit: { ask: 1209, totalAsk: 1209, bid: 1189, totalBid: 1189 },
  binancep2p: { ask: 1215, totalAsk: 1215, bid: 1199, totalBid: 1199 },
  bitgetp2p: { ask: 0, totalAsk: 0, bid: 1150, totalBid: 1150 },
  tiendacrypto: { ask: 1650, totalAsk: 1650, bid: 1620, totalBid: 1620 },
};

export const ARS_DOLLARS = {
  official: 1050,
  blueAsk: 1230,
  blueBid: 1210,
  mepCi: 1180,
  mep24: 1182,
  cclCi: 1200,
  ccl24: 1205,
  card: 1365,
  wholesale: 1030,
};

/** The commercial dollar: AwesomeAPI bid/ask and the PTAX compra/venda (slightly different, so a test can tell them apart). */
export const USD_BRL = { bid: 5.399, ask: 5.401, ptaxBuy: 5.395, ptaxSell: 5.3956 };

export interface BrlVenue {
  /** Premium over BTCUSDT x 5.40, a fraction. */
  btcPremium: number;
  btcHalfSpread: number;
  usdtPremium: number;
  usdtHalfSpread: number;
}

/** Venues with their own API. */
export const DIRECT_BRL: Readonly<Record<'mercado-bitcoin' | 'foxbit', BrlVenue>> = {
  'mercado-bitcoin': { btcPremium: 0.004, btcHalfSpread: 0.001, usdtPremium: 0.003, usdtHalfSpread: 0.0005 },
  foxbit: { btcPremium: 0.002, btcHalfSpread: 0.0015, usdtPremium: 0.002, usdtHalfSpread: 0.001 },
};

/** Venues CriptoYa reports (fee-inclusive); mercadobitcoin is CriptoYa's own copy of a direct venue, bitpreco is far off. */
export const CRIPTOYA_BRL: Readonly<Record<string, BrlVenue>> = {
  binance: { btcPremium: 0.001, btcHalfSpread: 0.0005, usdtPremium: 0.001, usdtHalfSpread: 0.0005 },
  bitso: { btcPremium: 0.005, btcHalfSpread: 0.002, usdtPremium: 0.004, usdtHalfSpread: 0.002 },
  novadax: { btcPremium: 0.003, btcHalfSpread: 0.002, usdtPremium: 0.003, usdtHalfSpread: 0.0015 },
  brasilbitcoin: { btcPremium: 0.006, btcHalfSpread: 0.0025, usdtPremium: 0.005, usdtHalfSpread: 0.002 },
  bitpreco: { btcPremium: 0.3, btcHalfSpread: 0.002, usdtPremium: 0.3, usdtHalfSpread: 0.002 },
  mercadobitcoin: { btcPremium: 0.004, btcHalfSpread: 0.001, usdtPremium: 0.003, usdtHalfSpread: 0.0005 },
};

const BASE_USD_BRL = 5.4;

export interface Top {
  ask: number;
  bid: number;
}

const round = (x: number, dp: number): number => Number(x.toFixed(dp));

export function brlTop(model: MarketModel, venue: BrlVenue, asset: 'btc' | 'usdt'): Top {
  if (asset === 'btc') {
    const mid = model.basePrice('BTCUSDT') * BASE_USD_BRL * (1 + venue.btcPremium);
    return { ask: round(mid * (1 + venue.btcHalfSpread), 2), bid: round(mid * (1 - venue.btcHalfSpread), 2) };
  }
  const mid = BASE_USD_BRL * (1 + venue.usdtPremium);
  return { ask: round(mid * (1 + venue.usdtHalfSpread), 4), bid: round(mid * (1 - venue.usdtHalfSpread), 4) };
}

/** "YYYY-MM-DD HH:mm:ss.SSS" in Brasília time (UTC-3). */
export function brasilia(ms: number): string {
  return new Date(ms - 3 * 3_600_000).toISOString().replace('T', ' ').replace('Z', '');
}
