import { createHash } from 'node:crypto';
import { QUEUE_PREFIX } from '../queues/queue-names.js';
import { tagOfSlot, tagOfSlotOf } from './slot-tags.js';

/** Every Redis key name the service uses, built in one place. */
export const keys = {
  rateLimitPrefix: (limit: number) => `rl:${limit}`,
  /** rate-limiter-flexible's daily counters of sign-in links per mailbox digest (shared/site/sign-in-budgets.ts). */
  signInDailyPrefix: () => 'rl:signin-day',

  // market data: per-symbol keys share the {SYMBOL} hash tag, so a symbol's script stays in one slot
  /** hash venue -> JSON {price, ts, changePct24h?, quoteVolume24h?}: each venue's last price. */
  marketVenuePrices: (symbol: string) => `mkt:{${symbol}}:px`,
  /** string JSON Quote {symbol, price, venues, changePct24h, ts}: the median of the fresh venues. */
  marketQuote: (symbol: string) => `mkt:{${symbol}}:quote`,
  /** string JSON {venue, ts, bids, asks} (top 50 levels, [price, size]): a major's order book, refreshed by the feed (depth-store.ts). */
  marketDepth: (symbol: string) => `mkt:{${symbol}}:depth`,
  /** zset score openTime -> JSON candle: closed 1m candles, one per minute, last 1440. */
  marketCandles1m: (symbol: string) => `mkt:{${symbol}}:c1m`,
  /** hash venue -> JSON candle: each venue's 1m candle in progress. */
  marketCurrentCandle: (symbol: string) => `mkt:{${symbol}}:c1m:cur`,
  /**
   * string JSON {end, candles}: one aligned window of REST history of one interval (shared/market/history-windows.ts), cached for
   * the API (HISTORY_CACHE_MS; an empty one HISTORY_EMPTY_CACHE_MS).
   */
  marketHistory: (symbol: string, intervalMinutes: number, window: number) => `mkt:{${symbol}}:hist:${intervalMinutes}:${window}`,
  /** hash {tokens, at}: a venue's token bucket for the REST calls users drive (UPSTREAM_REST_PER_MIN), across API pods. */
  upstreamBudget: (venue: string) => `upstream:{${venue}}:users`,
  /** string JSON {updatedAt, symbols: UniverseEntry[]}: the symbol universe, largest volume first. */
  marketUniverseList: () => 'mkt:{universe}:list',
  /** set of the universe's symbols, for membership checks. */
  marketUniverseSet: () => 'mkt:{universe}:set',
  /** hash symbol -> 24h quote volume (USDT, summed over venues) of the universe's symbols: a trade's leverage cap reads one field. */
  marketUniverseVolumes: () => 'mkt:{universe}:volumes',
  marketUniverseClasses: () => 'mkt:{universe}:classes',
  marketUniverseClosed: () => 'mkt:{universe}:closed',
  /** pub/sub channel: JSON {symbol, price, venues, ts} for every aggregate written. */
  marketTicksChannel: () => 'mkt:ticks',
  /** string owner id, PX lease: which feed process runs this venue's connector. */
  feedLease: (venue: string) => `feed:lease:{${venue}}`,
  /** hash venue -> ms: when the feed's writer last flushed a price of that venue (the status page's message age). */
  feedLastMessage: () => 'feed:{status}:last',
  /** hash lease name -> JSON {owner, open, sockets, ts}: the holder's report of a connector's sockets, every few seconds (status page). */
  feedConnections: () => 'feed:{status}:conn',

  // the status page (shared/status)
  /** hash <component>:up and <component>:n -> count of one UTC day's samples (day YYYY-MM-DD); expires after 95 days. */
  statusDay: (day: string) => `status:{days}:${day}`,
  /** string ms: when the status sampler last took a sample (a gap since is an outage of the workers or of Redis). */
  statusLastSample: () => 'status:{days}:last-sample',
  /** hash scheduler id -> the release (x.y.z) that last registered it: a later release's are not an earlier one's to remove. */
  schedulerReleases: () => `${QUEUE_PREFIX}:scheduler-releases`,
  /** A BullMQ queue's own key (part: failed, repeat, ...), read by the status page without a Queue object. */
  bullQueue: (queue: string, part: string) => `${QUEUE_PREFIX}:${queue}:${part}`,

  // accounts and keys: everything of one account shares its {accountId} hash tag. The two indexes
  // below are the only cross-account keys; both are written once and never change afterwards.
  /** string accountId: the global e-mail index (e-mail lowercase, trimmed). */
  accountByEmail: (email: string) => `idx:email:${email}`,
  /** SCAN pattern of the e-mail index: every account (the ledger audit's listing). */
  accountByEmailPattern: 'idx:email:*',
  /** hash {accountId, keyId}: the global API-key index by the key's SHA-256 digest (hex); kept after revoke. */
  apiKeyByDigest: (digest: string) => `idx:apikey:${digest}`,
  /** hash {email, created, plan, plan_until, plan_source}: the account; plan_until (ms) and plan_source only for a paid plan. */
  accountProfile: (accountId: string) => `acct:{${accountId}}:profile`,
  /** zset keyId by created ms: every key of the account, revoked ones included. */
  accountKeys: (accountId: string) => `acct:{${accountId}}:keys`,
  /** set of keyId: the account's keys that are not revoked (counted against max_keys). */
  accountActiveKeys: (accountId: string) => `acct:{${accountId}}:keys:active`,
  /**
   * hash {id, name, book, created, revoked?, calls, last?, hmac?}: one key; book '' is the main account; hmac: its HMAC secret
   * for the exchange dialects, sealed (shared/core/secret-box.ts). Never the key or its digest.
   */
  accountKey: (accountId: string, keyId: string) => `acct:{${accountId}}:key:${keyId}`,
  /** string count, expires after 31 days: one key's calls on one UTC day (YYYY-MM-DD). */
  accountKeyDay: (accountId: string, keyId: string, day: string) => `acct:{${accountId}}:key:${keyId}:day:${day}`,
  /** Calls in the key's current rate window (key-gate.lua): rate state like the keyless rl: counters, in the account's slot. */
  accountKeyRate: (accountId: string, keyId: string) => `rl:{${accountId}}:key:${keyId}`,
  /** hash symbol -> leverage: the Binance dialect's per-symbol leverage setting of one book (POST /fapi/v1/leverage). */
  binanceLeverage: (accountId: string, book: string) => `acct:{${accountId}}:binance:leverage:${book}`,
  /** string, the order's answer (JSON), expires: a Binance-dialect order by its newClientOrderId, for retries. */
  binanceOrder: (accountId: string, book: string, clientOrderId: string) => `acct:{${accountId}}:binance:order:${book}:${clientOrderId}`,
  /** zset orderId by answered ms, and hash orderId -> newClientOrderId: one book's Binance-dialect orders of the last day. */
  binanceOrderLog: (accountId: string, book: string) => `acct:{${accountId}}:binance:orders:${book}`,
  binanceOrderIds: (accountId: string, book: string) => `acct:{${accountId}}:binance:order-ids:${book}`,
  /**
   * string, the listenKey, expires with it (60 minutes unless kept alive): the Binance user-data stream of one API key
   * (POST /fapi/v1/listenKey answers it again while valid).
   */
  binanceListenKeyOf: (accountId: string, keyId: string) => `acct:{${accountId}}:binance:listen-key:${keyId}`,
  /** string JSON {ctx}: the key context a listenKey streams the events of (its account and book), expiring with it. */
  binanceListenKey: (listenKey: string) => `idx:binance:listen-key:${listenKey}`,
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
  /**
   * string, 7-day TTL: what an open (the position id), a close (JSON {closed_id, remaining_id}) or a
   * limit or stop entry (the order id) with this client_order_id did.
   */
  bookIdempotency: (accountId: string, book: string, kind: 'open' | 'close' | 'order' | 'increase', clientOrderId: string) =>
    `acct:{${accountId}}:b:${book}:idem:${kind}:${clientOrderId}`,
  /** zset orderId by placed ms: the book's resting orders (limit and stop entries); reset cancels them. */
  bookOrders: (accountId: string, book: string) => `acct:{${accountId}}:b:${book}:orders`,
  /** hash orderId -> order JSON: the book's resting orders and its last done ones (see bookOrdersDone). */
  bookOrderData: (accountId: string, book: string) => `acct:{${accountId}}:b:${book}:orders:data`,
  /** zset orderId by done ms: orders that filled, expired, were cancelled or rejected; the oldest beyond a cap leave bookOrderData. */
  bookOrdersDone: (accountId: string, book: string) => `acct:{${accountId}}:b:${book}:orders:done`,
  /**
   * zset orderId by done ms, and hash orderId -> final status: a tombstone of each done order that left
   * bookOrderData, so it still answers already_done (kept ORDER_TOMBSTONE_MS, at most ORDER_TOMBSTONES_KEPT).
   */
  bookOrdersGone: (accountId: string, book: string) => `acct:{${accountId}}:b:${book}:orders:gone`,
  bookOrdersGoneStatus: (accountId: string, book: string) => `acct:{${accountId}}:b:${book}:orders:gone:status`,
  /** hash and zset like bookClosed/bookClosedByTime: the closed positions a reset archived. */
  bookArchiveClosed: (accountId: string, book: string, resetTs: number) => `acct:{${accountId}}:b:${book}:archive:${resetTs}:closed`,
  bookArchiveClosedByTime: (accountId: string, book: string, resetTs: number) =>
    `acct:{${accountId}}:b:${book}:archive:${resetTs}:closed:ts`,
  /** zset reset_ts by reset_ts: the archives of a book. */
  bookArchives: (accountId: string, book: string) => `acct:{${accountId}}:b:${book}:archives`,
  /**
   * hash of counters: the closed trades the retention pruned (trades-prune.lua), in compact form. reset_ts, realized_cents,
   * closed, wins, liquidations, best_cents: those closed since the reset reset_ts names (a later reset makes them archived);
   * life_realized_cents, life_closed, life_wins: every one pruned, live or archived. The ledger audit adds them.
   */
  bookPruned: (accountId: string, book: string) => `acct:{${accountId}}:b:${book}:pruned`,
  /**
   * zset of books (their bookClosedByTime key) by the oldest close time they may hold, live or archived (a lower bound),
   * one zset per hash slot (slot-tags.ts): position-close.lua adds the book in the same step, trades-prune.lua moves it
   * on or removes it; the prune job reads these, not the keyspace.
   */
  tradePruneIndex: (accountId: string) => `prune:closed:{${tagOfSlotOf(`acct:{${accountId}}:b`)}}`,
  /** The trade prune index of one hash slot (0..16383). */
  tradePruneIndexOfSlot: (slot: number) => `prune:closed:{${tagOfSlot(slot)}}`,
  /**
   * zset minute -> 'minute:cents:closes': the book's equity curve, its realized P&L (cents) and closes since the reset as they stood
   * at the end of each minute with a close; written by position-close.lua, dropped by a reset (shared/paper/analytics).
   */
  bookEquityCurve: (accountId: string, book: string) => `acct:{${accountId}}:b:${book}:an:eq`,
  /** hash field -> integer: the report's sums of the book's closes of one UTC day (day = days since the epoch; closeIncrements). */
  bookDayBucket: (accountId: string, book: string, day: number) => `acct:{${accountId}}:b:${book}:an:d:${day}`,
  /**
   * string JSON {stamp, value}: a read model's answer cached for the book (`what` names it: a skill score, a curve, a report of a
   * window), valid while its stamp (the book's closes and reset, the minute or day) is the current one (shared/paper/analytics).
   */
  bookReadCache: (accountId: string, book: string, what: string) => `acct:{${accountId}}:b:${book}:an:cache:${what}`,
  /** hash {profile: JSON of the book's simulation profile (shared/engine/sim-profile.ts), draws: opens drawn against reject_rate_pct}. */
  bookSim: (accountId: string, book: string) => `acct:{${accountId}}:b:${book}:sim`,
  /** set of book names: the books that have traded (the accounts listing's fallback when no book registry is given). */
  paperBooks: (accountId: string) => `acct:{${accountId}}:paper:books`,
  /** hash {fee_venue, fee_venue:<book>}: the account's trading settings (a book's own fee venue beside the account's). */
  paperSettings: (accountId: string) => `acct:{${accountId}}:paper:settings`,
  /**
   * stream: every event of the account (position.opened/updated/closed/liquidated, order.filled/
   * cancelled/expired, book.reset), written by the same script as the change.
   */
  accountOutbox: (accountId: string) => `acct:{${accountId}}:outbox`,
  /** pub/sub channel: every script that appends to an outbox publishes the outbox key here (hard-coded in the .lua files). */
  outboxNudgeChannel: 'pd:outbox',
  /**
   * set of outbox keys that may hold unrelayed entries, one set per hash slot (slot-tags.ts): the scripts that append add
   * the outbox in the same step, the relay's ack removes it once empty; the relay's periodic pass reads these, not the keyspace.
   */
  outboxIndex: (accountId: string) => `push:unrelayed:{${tagOfSlotOf(`acct:{${accountId}}:outbox`)}}`,
  /** The outbox index of one hash slot (0..16383). */
  outboxIndexOfSlot: (slot: number) => `push:unrelayed:{${tagOfSlot(slot)}}`,

  // push (shared/push): the outbox relay, the WebSocket stream and webhooks
  /** SCAN pattern of every account's outbox (redis-census in the bench; the relay reads outboxIndex). */
  accountOutboxPattern: 'acct:*:outbox',
  /** string relay id, PX lease: the one relay draining this outbox now (keeps the account's events in order). */
  outboxLease: (accountId: string) => `acct:{${accountId}}:outbox:lease`,
  /** string relay id, PX lease: the relay that looks for outboxes nobody drained, once per scan period in the cluster. */
  outboxScanLease: 'push:scan:lease',
  /** hash {at, oldest}: when the last complete pass ended and the append time of the oldest entry it saw ('' for none), ms. */
  outboxScanReport: 'push:scan:report',
  /**
   * pub/sub channel: JSON {id, book, messages} per outbox entry relayed, and {cut, code, reason} notices that close sockets (socket-
   * notices.ts); API pods with the account's sockets subscribe.
   */
  accountEvents: (accountId: string) => `acct:{${accountId}}:events`,
  /** zset socket id by the ms its slot lapses: the account's open WebSocket streams on every pod (the cap of 3). */
  accountSockets: (accountId: string) => `acct:{${accountId}}:sockets`,
  /** string pod id, PX lease: the pod running this book's connected-book sweep for the current tick (shared/paper/sweep). */
  connectedBookSweepTurn: (accountId: string, book: string) => `acct:{${accountId}}:b:${book}:qsweep`,
  /** hash hookId -> JSON {id, url, sealed_secret (or secret, in clear, before sealing), events, book, created}: the account's webhooks. */
  accountWebhooks: (accountId: string) => `acct:{${accountId}}:hooks`,
  /** set of hookId: the account's webhooks paused after consecutive failures. */
  accountWebhooksPaused: (accountId: string) => `acct:{${accountId}}:hooks:paused`,
  /**
   * hash {deliveries, failures, consecutive_failures, last_error, last_status, last_attempt_ts, last_success_ts}: one webhook's counters.
   */
  webhookStats: (accountId: string, hookId: string) => `acct:{${accountId}}:hook:${hookId}`,
  /**
   * list of JSON deliveries, newest first, last 20, 15-minute TTL: what a whsink address received (digest = SHA-256 of
   * its token). Every address shares the {sinks} slot, so one script enforces the cap on addresses (whsink-record.lua).
   */
  whsink: (digest: string) => `whsink:{sinks}:${digest}`,
  /** integer, expires with its window: deliveries a whsink address took in its current minute. */
  whsinkRate: (digest: string) => `whsink:{sinks}:${digest}:rate`,
  /** zset digest by the ms its deliveries lapse: the whsink addresses holding deliveries. */
  whsinkLive: () => 'whsink:{sinks}:live',
  /** integer, expires with its window (15 minutes): new whsink addresses one client (digest of its address) made in it. */
  whsinkClient: (clientDigest: string) => `whsink:{sinks}:client:${clientDigest}`,
  /**
   * zset member accountId|book|positionId by trigger price: the cross-account trigger indexes the sweep
   * reads (kind sl, tp or liq; side long or short). Hints, written around the account scripts
   * (shared/paper/positions/trigger-hints.ts): the settlement re-checks the position.
   * The sl score is the stop in force (the tighter of the stop-loss and the trailing stop); kind
   * trail holds the trailing positions only, scored by their high-water mark, for the minute's ratchet.
   */
  triggerIndex: (symbol: string, kind: 'sl' | 'tp' | 'liq' | 'trail', side: 'long' | 'short') => `trig:{${symbol}}:${kind}:${side}`,
  /**
   * zset member accountId|book|orderId by limit price: the cross-account resting-order indexes a
   * candle's fill reads (reach down: limit longs and stop shorts, filled when the low reaches the
   * level; up: limit shorts and stop longs, the high). Hints: the fill re-checks the order.
   */
  orderIndex: (symbol: string, reach: 'down' | 'up') => `ord:{${symbol}}:${reach}`,
  /** zset member accountId|book|orderId|symbol|reach by expiry ms: the resting orders by when they expire (a hint, like orderIndex). */
  orderExpiry: () => 'ord:{expiry}:due',
  /** hash funding time (ms) -> JSON {rate, mark}: the funding that settled at each of the symbol's funding times. */
  fundingRecords: (symbol: string) => `mkt:{${symbol}}:funding`,
  /** zset funding time (ms) by itself: the times fundingRecords holds, for a range read (same slot). */
  fundingTimes: (symbol: string) => `mkt:{${symbol}}:funding:times`,
  /** string ms: when the funding recorder last finished a run; the next run reads the venue's history from a little before. */
  fundingRecordedUntil: () => 'mkt:{funding}:recorded-until',

  // the arena (shared/arena): cross-account, one hash tag per season, outside every account's slot;
  // a season's keys share its hash tag, so arena-close.lua stays in one slot; they expire SEASONS_KEPT seasons after the season ends
  /**
   * hash accountId|book -> "last outbox entry id,closes,wins,pnl cents,roe sum (hundredths of a percent),liquidations,slippage closes,
   * tiered closes": each book's closes in the season, written by the outbox relay.
   */
  arenaTallies: (season: number) => `arena:{s${season}}:tallies`,
  /** zset accountId|book by realized P&L (cents): the season's books with at least MIN_CLOSES closes, written with their tallies. */
  arenaRanking: (season: number) => `arena:{s${season}}:ranking`,
  /** string JSON StoredBoard: the season's board as the rollup last computed it (the route serves it). */
  arenaBoard: (season: number) => `arena:{s${season}}:board`,

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
  /**
   * hash: rolling 24 h sums c:<SYM>:<l|s> (cents), n:<SYM>:<l|s> (count), xc:/xn:<exchange>:<l|s>, and _expired (the last 5-minute block
   * subtracted).
   */
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
  /** string count, expires two days after its UTC day: an account's /ai reads on one UTC day (YYYY-MM-DD), across its keys. */
  accountAiDay: (accountId: string, day: string) => `acct:{${accountId}}:ai:day:${day}`,

  // replay (shared/paper/replay): a key's replay of a past day; its journal is a book of the account (replayBook) whose events stay out
  // of the outbox
  /** hash: the replay a key runs (id, symbol, day, speed, start_ts, end_ts, started_at, swept_to, finished, book, ...). */
  replayState: (accountId: string, keyId: string) => `acct:{${accountId}}:replay:${keyId}`,
  /** stream: the account's replay journals' position events (never relayed: not an outbox); trimmed by the clocks. */
  replayEvents: (accountId: string) => `acct:{${accountId}}:replay:events`,
  /** set: the replay journals' book names (what the position scripts record as traded books, kept apart from paperBooks). */
  replayBooks: (accountId: string) => `acct:{${accountId}}:replay:books`,
  /** string JSON [[t,o,h,l,c,v], ...]: one symbol's 1-minute candles of one past UTC day (YYYY-MM-DD), TTL REPLAY_CANDLE_TTL_S. */
  replayCandles: (symbol: string, day: string) => `mkt:{${symbol}}:replay:${day}`,

  // the site (shared/site/site-store.ts): plain hashes and sets, each command on one key (no hash tags: any slot)
  /** hash {email, created, last_sign_in}: a site user, one per account that signed in on the site. */
  siteUser: (accountId: string) => `site:user:${accountId}`,
  /** hash {account, email, created}: a session, named by the SHA-256 of its cookie; expires 30 days after its last use. */
  siteSession: (sessionId: string) => `site:session:${sessionId}`,
  /** hash {email, created, expires, used?}: a one-time sign-in link, named by the SHA-256 of its token. */
  siteLink: (linkId: string) => `site:link:${linkId}`,
  /** set of the digests of an account's sessions (sign out everywhere); entries whose session lapsed are pruned on use. */
  siteAccountSessions: (accountId: string) => `site:account-sessions:${accountId}`,
  /** set of the digests of an address's sign-in links (a sign-in ends the others); lives as long as a link record. */
  siteEmailLinks: (email: string) => `site:email-links:${createHash('sha256').update(email, 'utf8').digest('hex')}`,
  /** list of JSON OutboxMail, newest first, the last OUTBOX_KEEP: the development outbox (no SMTP_URL). */
  siteOutbox: () => 'site:outbox',
};
