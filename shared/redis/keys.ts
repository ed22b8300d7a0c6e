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

  // accounts and keys: everything of one account shares its {accountId} hash tag. The two indexes
  // below are the only cross-account keys; both are written once and never change afterwards.
  /** string accountId: the global e-mail index (e-mail lowercase, trimmed). */
  accountByEmail: (email: string) => `idx:email:${email}`,
  /** hash {accountId, keyId}: the global API-key index by the key's SHA-256 digest (hex); kept after revoke. */
  apiKeyByDigest: (digest: string) => `idx:apikey:${digest}`,
  /** hash {email, created, plan, plan_until}: the account; plan_until (ms) only for a paid plan. */
  accountProfile: (accountId: string) => `acct:{${accountId}}:profile`,
  /** zset keyId by created ms: every key of the account, revoked ones included. */
  accountKeys: (accountId: string) => `acct:{${accountId}}:keys`,
  /** set of keyId: the account's keys that are not revoked (counted against max_keys). */
  accountActiveKeys: (accountId: string) => `acct:{${accountId}}:keys:active`,
  /** hash {id, name, book, created, revoked?, calls, last?}: one key; book '' is the main account. Never the key or its digest. */
  accountKey: (accountId: string, keyId: string) => `acct:{${accountId}}:key:${keyId}`,
  /** string count, expires after 31 days: one key's calls on one UTC day (YYYY-MM-DD). */
  accountKeyDay: (accountId: string, keyId: string, day: string) => `acct:{${accountId}}:key:${keyId}:day:${day}`,
  /** zset book name by created ms: the account's named books ('main' is implicit, never stored). */
  accountBooks: (accountId: string) => `acct:{${accountId}}:books`,

  // paper trading: everything of a book lives under its account's {accountId} hash tag, so each
  // money-moving script touches one slot; book names are [A-Za-z0-9_-] or 'main'
  /** hash positionId -> position JSON: the book's open positions. */
  bookOpen: (accountId: string, book: string) => `acct:{${accountId}}:b:${book}:open`,
  /** hash positionId -> position JSON: positions closed since the last reset (closed parts of partial closes included). */
  bookClosed: (accountId: string, book: string) => `acct:{${accountId}}:b:${book}:closed`,
  /** zset positionId by closed_ts: the order of the closed positions, for trades and since. */
  bookClosedByTime: (accountId: string, book: string) => `acct:{${accountId}}:b:${book}:closed:ts`,
  /** hash of counters: reset_ts, realized_cents, closed, wins, losses, best_cents, liquidations, and life_* (never reset). */
  bookStats: (accountId: string, book: string) => `acct:{${accountId}}:b:${book}:stats`,
  /** string, 7-day TTL: what an open (the position id) or a close (JSON {closed_id, remaining_id}) with this client_order_id did. */
  bookIdempotency: (accountId: string, book: string, kind: 'open' | 'close', clientOrderId: string) =>
    `acct:{${accountId}}:b:${book}:idem:${kind}:${clientOrderId}`,
  /** zset: the book's resting orders (limit and stop entries, a later issue); reset cancels them. */
  bookOrders: (accountId: string, book: string) => `acct:{${accountId}}:b:${book}:orders`,
  /** hash and zset like bookClosed/bookClosedByTime: the closed positions a reset archived. */
  bookArchiveClosed: (accountId: string, book: string, resetTs: number) => `acct:{${accountId}}:b:${book}:archive:${resetTs}:closed`,
  bookArchiveClosedByTime: (accountId: string, book: string, resetTs: number) => `acct:{${accountId}}:b:${book}:archive:${resetTs}:closed:ts`,
  /** zset reset_ts by reset_ts: the archives of a book. */
  bookArchives: (accountId: string, book: string) => `acct:{${accountId}}:b:${book}:archives`,
  /** set of book names: the books that have traded (the accounts listing's fallback when no book registry is given). */
  paperBooks: (accountId: string) => `acct:{${accountId}}:paper:books`,
  /** hash {fee_venue}: the account's trading settings. */
  paperSettings: (accountId: string) => `acct:{${accountId}}:paper:settings`,
  /** stream: every position event of the account (position.opened/updated/closed/liquidated, book.reset), written by the same script as the change. */
  accountOutbox: (accountId: string) => `acct:{${accountId}}:outbox`,
  /** pub/sub channel: every script that appends to an outbox publishes the outbox key here (hard-coded in the .lua files). */
  outboxNudgeChannel: 'pd:outbox',
  /**
   * zset member accountId|book|positionId by trigger price: the cross-account trigger indexes the sweep
   * reads (kind sl, tp or liq; side long or short). Hints: the settlement re-checks the position.
   */
  triggerIndex: (symbol: string, kind: 'sl' | 'tp' | 'liq', side: 'long' | 'short') => `trig:{${symbol}}:${kind}:${side}`,
  /** hash funding time (ms) -> JSON {rate, mark}: the funding recorded for each 00/08/16 UTC funding time. */
  fundingRecords: (symbol: string) => `mkt:{${symbol}}:funding`,

  // screener, macro data and regional quotes: snapshots written by the refresh jobs, read by the API
  /** hash {data, fetchedAt, attemptAt, attemptOk, error}: the last screener run (data = JSON ScreenerResult). */
  screenerSnapshot: () => 'scr:{screener}',
  /**
   * hash {data, fetchedAt, attemptAt, attemptOk, error}: one provider resource (fear-greed, coins,
   * global, trending, defi, categories, or coins:<category> for a category fetched on demand).
   */
  macroSnapshot: (resource: string) => `macro:{${resource}}`,
  /** hash {data, fetchedAt, attemptAt, attemptOk, error}: the computed regional quote (region ar or br). */
  latamSnapshot: (region: string) => `latam:{${region}}`,
  /** string JSON {<source>: {ok, attemptAt, at, data}}: each upstream source's last answer, good or not. */
  latamSources: (region: string) => `latam:{${region}}:sources`,
  /** zset score hour (ms) -> JSON point: the region's own hourly history, 30 days. */
  latamHistory: (region: string) => `latam:{${region}}:hist`,

  // liquidations: every key shares the {liq} hash tag, so the batch scripts (shared/derivatives/
  // liquidations/lua, which build the same names from liqPrefix) stay in one slot under Redis Cluster
  liqPrefix: () => 'liq:{liq}:',
  /** hash: rolling 24 h sums c:<SYM>:<l|s> (cents), n:<SYM>:<l|s> (count), xc:/xn:<exchange>:<l|s>, and _expired (the last 5-minute block subtracted). */
  liqTotals: () => 'liq:{liq}:tot24',
  /** list of encoded events [ts,exchange,symbol,l|s,price,qty,notional], newest first: every exchange's, 24 h, at most LIQ_RAW_MAX. */
  liqRaw: () => 'liq:{liq}:raw',
  /** list like liqRaw: one symbol's last 1000 events (symbols of the universe). */
  liqSymbolEvents: (symbol: string) => `liq:{liq}:ev:${symbol}`,
  /** string, BITFIELD u32 [long, short] whole dollars per minute of one UTC day (day = minute / 1440); kept 30 days after the day. */
  liqMinuteBuckets: (symbol: string, day: number) => `liq:{liq}:m:${symbol}:${day}`,
  /** hash like liqTotals: what one 5-minute block (ts / 300000) added to the totals, subtracted when it leaves the 24 h window. */
  liqWindowBlock: (block: number) => `liq:{liq}:w:${block}`,
  /** set of event ids received in one half of LIQ_DEDUP_MS (n = receipt ms / half): an id in this or the previous set is a replay. */
  liqSeen: (n: number) => `liq:{liq}:seen:${n}`,
  // derivatives snapshots written by the refresh jobs
  /** string JSON {updatedAt, pairs}: funding rates per pair and exchange. */
  derivFunding: () => 'deriv:{deriv}:funding',
  /** string JSON {updatedAt, totalUsd, pairs}: open interest in USD per pair and exchange. */
  derivOpenInterest: () => 'deriv:{deriv}:oi',
  /** string JSON {updatedAt, pairs}: long/short account ratios of the majors. */
  derivLongShort: () => 'deriv:{deriv}:ls',
  /** zset score ts -> "<ts>:<oiUsd>": one pair's open interest over the last 25 h (cluster model input). */
  derivOiHistory: (symbol: string) => `deriv:{${symbol}}:oi`,
};
