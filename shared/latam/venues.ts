/**
 * Display names of the venues the regional quotes list, and the taker fees added to the venues
 * quoted straight from their own order books (CriptoYa's totalAsk/totalBid already include fees).
 */

const NAMES: Record<string, string> = {
  argenbtc: 'ArgenBTC',
  belo: 'Belo',
  binance: 'Binance',
  binancep2p: 'Binance P2P',
  bitgetp2p: 'Bitget P2P',
  bitso: 'Bitso',
  bitsoalpha: 'Bitso Alpha',
  bitpreco: 'BitPreço',
  brasilbitcoin: 'Brasil Bitcoin',
  buenbit: 'Buenbit',
  bybitp2p: 'Bybit P2P',
  cocoscrypto: 'Cocos Crypto',
  cryptomkt: 'CryptoMKT',
  decrypto: 'Decrypto',
  fiwind: 'Fiwind',
  foxbit: 'Foxbit',
  lemoncash: 'Lemon Cash',
  letsbit: 'LetsBit',
  'mercado-bitcoin': 'Mercado Bitcoin',
  mercadobitcoin: 'Mercado Bitcoin',
  mexcp2p: 'MEXC P2P',
  novadax: 'NovaDAX',
  okexp2p: 'OKX P2P',
  pluscrypto: 'Plus Crypto',
  ripio: 'Ripio',
  ripioexchange: 'Ripio Trade',
  satoshitango: 'SatoshiTango',
  tiendacrypto: 'TiendaCrypto',
  universalcoins: 'Universal Coins',
  vitawallet: 'Vita Wallet',
  wallbit: 'Wallbit',
};

export function venueName(id: string): string {
  return NAMES[id] ?? id.charAt(0).toUpperCase() + id.slice(1);
}

/**
 * Taker fee (a fraction) of the lowest volume tier, from each venue's published fee table:
 * Mercado Bitcoin 0.70 %, Foxbit 0.50 %. A buyer pays ask x (1 + fee); a seller gets bid x (1 - fee).
 */
export const TAKER_FEES: Record<string, number> = {
  'mercado-bitcoin': 0.007,
  foxbit: 0.005,
};

/** CriptoYa also lists these; their own APIs are used instead, so CriptoYa's copies are skipped. */
export const DIRECT_BRL_VENUES: ReadonlySet<string> = new Set(['mercadobitcoin', 'foxbit']);

export function withFee(venue: string, ask: number, bid: number): { ask: number; bid: number } {
  const fee = TAKER_FEES[venue] ?? 0;
  return { ask: ask * (1 + fee), bid: bid * (1 - fee) };
}
