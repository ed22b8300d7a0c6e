/**
 * Reference payloads for formats that have no file in fixtures/: copied from the official API
 * documentation examples (values are the docs' placeholders; only keys and JSON types matter).
 */

/** https://www.bitget.com/api-doc/contract/market/Get-All-Symbol-Ticker (perpetual element) */
export const BITGET_TICKERS = {
  code: '00000',
  msg: 'success',
  requestTime: 1695794269124,
  data: [
    {
      symbol: 'BTCUSD',
      lastPr: '29904.5',
      askPr: '29904.5',
      bidPr: '29903.5',
      bidSz: '0.5091',
      askSz: '2.2694',
      high24h: '0',
      low24h: '0',
      ts: '1695794271400',
      change24h: '0',
      baseVolume: '0',
      quoteVolume: '0',
      usdtVolume: '0',
      openUtc: '0',
      changeUtc24h: '0',
      indexPrice: '29132.353333',
      fundingRate: '-0.0007',
      holdingAmount: '125.6844',
      deliveryStartTime: null,
      deliveryTime: null,
      deliveryStatus: 'delivery_normal',
      open24h: '0',
      markPrice: '12345',
    },
  ],
};

/** https://www.bitget.com/api-doc/contract/market/Get-Candle-Data */
export const BITGET_CANDLES = {
  code: '00000',
  msg: 'success',
  requestTime: 1695865615662,
  data: [
    ['1695835800000', '26210.5', '26210.5', '26194.5', '26194.5', '26.26', '687897.63'],
    ['1695836100000', '26194.5', '26194.5', '26171', '26171', '17.98', '470618.72'],
  ],
};

/** https://www.bitget.com/api-doc/contract/websocket/public/Tickers-Channel */
export const BITGET_WS_TICKER = {
  action: 'snapshot',
  arg: { instType: 'USDT-FUTURES', channel: 'ticker', instId: 'BTCUSDT' },
  data: [
    {
      instId: 'BTCUSDT',
      lastPr: '27000.5',
      bidPr: '27000',
      askPr: '27000.5',
      bidSz: '2.71',
      askSz: '8.76',
      open24h: '27000.5',
      high24h: '30668.5',
      low24h: '26999.0',
      change24h: '-0.00002',
      fundingRate: '0.000010',
      nextFundingTime: '1695722400000',
      markPrice: '27000.0',
      indexPrice: '25702.4',
      holdingAmount: '929.502',
      baseVolume: '368.900',
      quoteVolume: '10152429.961',
      openUtc: '27000.5',
      symbolType: 1,
      symbol: 'BTCUSDT',
      deliveryPrice: '0',
      ts: '1695715383021',
    },
  ],
  ts: 1695715383039,
};

/** https://www.bitget.com/api-doc/contract/websocket/public/Candlesticks-Channel */
export const BITGET_WS_CANDLE = {
  action: 'snapshot',
  arg: { instType: 'USDT-FUTURES', channel: 'candle1m', instId: 'BTCUSDT' },
  data: [['1695685500000', '27000', '27000.5', '27000', '27000.5', '0.057', '1539.0155', '1539.0155']],
  ts: 1695715462250,
};

/** https://developers.binance.com/docs/derivatives/usds-margined-futures/websocket-market-streams/Individual-Symbol-Ticker-Streams */
export const BINANCE_WS_TICKER = {
  e: '24hrTicker',
  E: 123456789,
  s: 'BTCUSDT',
  p: '0.0015',
  P: '250.00',
  w: '0.0018',
  c: '0.0025',
  Q: '10',
  o: '0.0010',
  h: '0.0025',
  l: '0.0010',
  v: '10000',
  q: '18',
  O: 0,
  C: 86400000,
  F: 0,
  L: 18150,
  n: 18151,
};
