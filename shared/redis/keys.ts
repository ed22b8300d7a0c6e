/** Every Redis key name the service uses, built in one place. */
export const keys = {
  rateLimitPrefix: (limit: number) => `rl:${limit}`,

  // market data: per-symbol keys share the {SYMBOL} hash tag, so a symbol's script stays in one slot
  /** hash venue -> JSON {price, ts, changePct24h?, quoteVolume24h?}: each venue's last price. */
  marketVenuePrices: (symbol: string) => `mkt:{${symbol}}:px`,
  /** string JSON Quote {symbol, price, venues, changePct24h, ts}: the median of the fresh venues. */
  marketQuote: (symbol: string) => `mkt:{${symbol}}:quote`,
  /** zset score openTime -> JSON candle: closed 1m candles, one per minute, last 1440. */
  marketCandles1m: (symbol: string) => `mkt:{${symbol}}:c1m`,
  /** hash venue -> JSON candle: each venue's 1m candle in progress. */
  marketCurrentCandle: (symbol: string) => `mkt:{${symbol}}:c1m:cur`,
  /** string JSON Candle[]: REST history cached for the API (short TTL). */
  marketHistory: (symbol: string, intervalMinutes: number, endMs: number, limit: number) =>
    `mkt:{${symbol}}:hist:${intervalMinutes}:${endMs}:${limit}`,
  /** string JSON {updatedAt, symbols: UniverseEntry[]}: the symbol universe, largest volume first. */
  marketUniverseList: () => 'mkt:{universe}:list',
  /** set of the universe's symbols, for membership checks. */
  marketUniverseSet: () => 'mkt:{universe}:set',
  /** pub/sub channel: JSON {symbol, price, venues, ts} for every aggregate written. */
  marketTicksChannel: () => 'mkt:ticks',
  /** string owner id, PX lease: which feed process runs this venue's connector. */
  feedLease: (venue: string) => `feed:lease:{${venue}}`,
};
