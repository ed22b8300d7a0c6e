import Joi from 'joi';
import { liquidationSchema, liquidationSettings, type LiquidationSettings } from '../derivatives/liquidations/liquidation-urls.js';
import { providerUrlSchema, providerUrlsFrom, type DataProvider } from '../http/provider-urls.js';
import { upstreamSchema, upstreamSettings, type UpstreamSettings } from '../market/upstream-settings.js';
import { FEED_VENUES, LIVE_VENUE_URLS, type FeedVenue } from '../market/venues/venue-urls.js';
import { webhookDeliverySchema } from '../push/webhook-retry-policy.js';
import { FEED_STALE_MS } from '../status/status-rules.js';
import { clusterAddress } from '../redis/connection.js';
import { LONGEST_HISTORY_DAYS } from '../paper/plans.js';
import { ConfigError } from './config-error.js';
import { parseTrustProxy, type TrustProxy } from './trust-proxy.js';
import { venueUrlSchema, venueUrlsFrom, type MarketSource, type VenueUrls } from './base-urls.js';
import { redisUrlParses, webhookSecretsKey, withoutSecretValue } from './config-secrets.js';

export type Role = 'all' | 'api' | 'feed' | 'worker';

/**
 * Config extends LiquidationSettings (shared/derivatives/liquidations/liquidation-urls.ts): liquidationUrls (base URLs of gate, bitmex,
 * deribit, htx, bitfinex), liqVenues (liquidation connectors this feed runs), liqFlushMs, liqDedupMs,
 * liqRawMax, derivPairs (pairs of the funding and open-interest jobs).
 */
export type AppendFsync = 'everysec' | 'always';

export interface Config extends LiquidationSettings {
  port: number;
  host: string;
  role: Role;
  /**
   * Where Redis is, as one string (shared/redis/connection.ts): REDIS_URL, or with REDIS_CLUSTER=true `cluster:` and its
   * seed URLs; undefined starts a private redis-server.
   */
  redisUrl: string | undefined;
  /** Where the private redis-server keeps its append-only file when REDIS_URL is unset. */
  redisDataDir: string;
  /**
   * The private redis-server's append-only file sync: 'everysec' (an fsync a second: a crash of the machine loses at
   * most about the last second of acknowledged writes, two when the disk stalls) or 'always' (an fsync before each
   * reply: nothing acknowledged is lost, every write waits for the disk).
   */
  redisAppendFsync: AppendFsync;
  /**
   * How long a Redis command may go unanswered before it fails (ioredis `commandTimeout`), so a stuck shard cannot hold a
   * request forever: the request answers 503 unavailable. Not on BullMQ's blocking connections (their commands block).
   */
  redisCommandTimeoutMs: number;
  marketSource: MarketSource;
  simUrl: string | undefined;
  simPort: number;
  publicRateLimit: number;
  /** Requests with an unknown or revoked API key per minute per client IP; past it, 429 instead of 401. */
  badKeyRateLimit: number;
  /** Deliveries per minute per whsink token (its own budget, not the sender's IP's). */
  whsinkRateLimit: number;
  /** whsink addresses holding deliveries at once, across all tokens; a new one past it is refused (429 whsink_full). */
  whsinkMaxSinks: number;
  /** New whsink addresses one client (IP) may make per 15 minutes; past it, 429 whsink_client_limit. */
  whsinkClientMaxSinks: number;
  trustProxy: TrustProxy;
  webhookAllowPrivate: boolean;
  /**
   * The AES-256 key webhook secrets are stored encrypted under (WEBHOOK_SECRETS_KEY, 32 bytes); required with
   * NODE_ENV=production, a fixed development key otherwise (shared/core/config-secrets.ts).
   */
  webhookSecretsKey: Buffer;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** A venue's last price counts toward the aggregate only while younger than this. */
  priceFreshMs: number;
  /** With no fresh venue, the last known price is served as stale until it is this old; then 503. */
  priceStaleMaxMs: number;
  /**
   * A TradFi price (stock, metal, index, forex) its venues keep publishing unchanged for longer than this is stale
   * for opens (its underlying market is closed); 0 turns the rule off. Crypto never gets it.
   */
  tradfiFrozenMs: number;
  /** Hot read routes share answers in-process for this long. */
  quoteCacheMs: number;
  /** A stream with no message for this long is treated as down and reconnected. */
  streamSilenceMs: number;
  /** How long the feed lease lives without renewal; a standby takes over after it lapses. */
  feedLeaseMs: number;
  shutdownGraceMs: number;
  /**
   * How far the heap's old generation may grow past what the last full collection kept, in
   * percent, before the next full collection; 0 leaves it to V8. Full collections stall the event
   * loop and take CPU from every thread, so fewer of them cut the API's tail latency.
   */
  heapGrowingPercent: number;
  /**
   * V8's allocation-site pretenuring: once most objects made at one place in the code outlived a
   * young collection, V8 makes the later ones straight in the old generation, where only a full
   * collection frees them. A request's objects live a few milliseconds; off, they die young.
   */
  heapPretenuring: boolean;
  /** REST and WebSocket base URLs per exchange (BINANCE_REST_URL, BINANCE_WS_URL, ...). */
  venueUrls: Record<FeedVenue, VenueUrls>;
  /** The connectors this process runs when it is a feed (each still behind its lease). */
  feedVenues: FeedVenue[];
  /** How many symbols the feed follows: the top N USDT perpetuals by 24h quote volume across venues. */
  universeSize: number;
  /** How often the symbol universe is rebuilt from the venues' instruments and 24h tickers. */
  universeRefreshMs: number;
  /** How often the feed refreshes the majors' order books (fills that walk the book; 0: never). */
  depthRefreshMs: number;
  /** The feed writes aggregated prices (median across venues) at most this often per symbol. */
  aggregateThrottleMs: number;
  /** Upper bound of the reconnect backoff of exchange WebSockets (it starts at 250 ms, doubling, with jitter). */
  streamReconnectMaxMs: number;
  /** Timeout of one REST call to an exchange. */
  restTimeoutMs: number;
  /** How long a window of REST candle history fetched for the API stays cached in Redis. */
  historyCacheMs: number;
  /** The exchanges' budget for the REST calls users drive, and how long an empty history window is kept. */
  upstream: UpstreamSettings;
  /** Base URLs of the macro and regional-quote data providers (ALTERNATIVE_ME_URL, COINGECKO_URL, ...). */
  providerUrls: Record<DataProvider, string>;
  /** How many USDT perpetuals the screener scores: the top N of the universe by volume. */
  screenerSize: number;
  /** Minutes per candle of the screener's indicators. */
  screenerIntervalMinutes: number;
  /** Push (shared/push, api/ws): the stream's price tick, socket life and the outbox relay's cadence. */
  push: PushSettings;
  /** How often the status sampler (one job per cluster) counts every component up or down for the status page's days. */
  statusSampleMs: number;
  /** A feed connector silent for longer than this reads down on the status page. */
  statusFeedStaleMs: number;
  /** How long a pod serves one /api/status answer. */
  statusCacheMs: number;
  /** Closed trades older than this many days leave Redis (the prune job), folded into each book's compact counters. */
  tradeRetentionDays: number;
  /** Closed trades (and books visited) one run of the prune job handles at most; a backlog goes on at the next run. */
  tradePrunePerRun: number;
  /**
   * The operator token: the /ops routes (the queue dashboard) take it as a bearer token or as HTTP basic with user `ops`.
   * Unset: every /ops route answers 404, so nothing operator-only is exposed by default.
   */
  opsToken: string | undefined;
  /**
   * The scrape token (METRICS_TOKEN): GET /metrics takes it the same ways, and it opens nothing else, so Prometheus's
   * credentials cannot open the dashboard. Unset: the API's /metrics answers 404.
   */
  metricsToken: string | undefined;
  /** A listener of its own serving GET /metrics in this process (worker and feed processes); unset: none. */
  metricsPort: number | undefined;
  /** /ai: the optional OpenAI-compatible provider (AI_BASE_URL, AI_MODEL, AI_API_KEY) and its timeout (AI_TIMEOUT_MS). */
  ai: AiSettings;
  /** The site: e-mail sign-in, its mail, its session cookie and its sign-in budgets (SITE_URL, SMTP_URL, ...). */
  site: SiteSettings;
  /** Replay of a past day (shared/paper/replay): the candle cache and how many replay clocks one worker process runs. */
  replay: ReplaySettings;
}

/** The site's settings (docs/guide/07-site-mcp-ai.md, "The site"). */
export interface SiteSettings {
  /** The site's public origin: sign-in links point at it and site calls must come from it; unset: the request's own host. */
  url: string | undefined;
  /** nodemailer's SMTP transport URL; unset: sign-in answers 503 mail_unavailable unless `devOutbox`. */
  smtpUrl: string | undefined;
  /**
   * MAIL_OUTBOX: without SMTP_URL, links go to the development outbox (logged and kept in Redis). Only when asked for
   * (the demo, the tests), and never with NODE_ENV=production: a link in a log signs anyone who reads it in.
   */
  devOutbox: boolean;
  mailFrom: string;
  /** The session cookie's Secure flag: on unless NODE_ENV=development or SITE_COOKIE_SECURE=false (the demo). */
  cookieSecure: boolean;
  /** Sign-in links asked per minute for one mailbox from one client IP, and from one client IP whatever the address. */
  signInPerEmail: number;
  signInPerIp: number;
  /** Sign-in links per day for one mailbox, from every client together. */
  signInPerEmailDay: number;
}

export interface ReplaySettings {
  /** How long a past day's 1-minute candles stay cached in Redis. */
  candleTtlS: number;
  /** Replay clocks (one long job per running replay) one worker process runs at once. */
  concurrency: number;
}

/** Timings of the WebSocket stream, the outbox relay and webhook delivery; tests shorten them. */
export interface PushSettings {
  /** The stream's tick: prices to every socket and the sweep of its book (the connected-book sweep). */
  streamTickMs: number;
  /** A socket is closed (code 4000, recycled) after this long; the client reconnects. */
  streamMaxAgeMs: number;
  /** A socket's slot in the per-account cap lapses this long after its pod last renewed it (a crashed pod's sockets); at least 3 ticks. */
  streamSlotTtlMs: number;
  /** One relay drains an account's outbox at a time under a lease this long (renewed while it works). */
  relayLeaseMs: number;
  /** How often a relay looks for outboxes whose nudge nobody heard. */
  relayScanMs: number;
  /** A receiver must answer 2xx within this long. */
  webhookTimeoutMs: number;
  /** First retry delay; each further retry doubles it (30 s, 1, 2, 4, 8 min). */
  webhookRetryBaseMs: number;
  /** How long a delivery job stays locked to its worker: a worker that dies mid-delivery gives it up after this. */
  webhookLockMs: number;
}

/** /ai: an OpenAI-compatible provider reasons over the brief when its three settings are given; else the built-in analyst answers. */
export interface AiSettings {
  provider: { baseUrl: string; model: string; apiKey: string } | undefined;
  /** The provider must answer within this long, or the built-in answer is used. */
  timeoutMs: number;
}

const schema = Joi.object({
  PORT: Joi.number().integer().min(0).max(65535).default(8080),
  HOST: Joi.string().default('0.0.0.0'),
  ROLE: Joi.string().valid('all', 'api', 'feed', 'worker').default('all'),
  // one redis:// URL, or a cluster's seed nodes comma-separated; the `cluster:` prefix is what REDIS_CLUSTER=true adds
  REDIS_URL: Joi.string()
    .pattern(/^(cluster:)?rediss?:\/\/[^,\s]+(,rediss?:\/\/[^,\s]+)*$/)
    .custom((value: string, helpers) => (redisUrlParses(value) ? value : helpers.error('string.pattern.base')))
    .messages({ 'string.pattern.base': 'must be redis:// or rediss:// URLs (host, port up to 65535), comma-separated' }),
  REDIS_CLUSTER: Joi.boolean().default(false),
  REDIS_DATA_DIR: Joi.string().default('.data/redis'),
  REDIS_APPENDFSYNC: Joi.string().valid('everysec', 'always').default('everysec'),
  REDIS_COMMAND_TIMEOUT_MS: Joi.number().integer().min(100).default(3_000),
  MARKET_SOURCE: Joi.string().valid('live', 'sim').default('live'),
  SIM_URL: Joi.string().uri({ scheme: ['http', 'https'] }),
  SIM_PORT: Joi.number().integer().min(0).max(65535).default(8090),
  PUBLIC_RATE_LIMIT: Joi.number().integer().min(1).default(60),
  BAD_KEY_RATE_LIMIT: Joi.number().integer().min(1).default(20),
  WHSINK_RATE_LIMIT: Joi.number().integer().min(1).default(60),
  WHSINK_MAX_SINKS: Joi.number().integer().min(1).default(200),
  WHSINK_CLIENT_MAX_SINKS: Joi.number().integer().min(1).default(20),
  TRUST_PROXY: Joi.string().default('false'),
  WEBHOOK_ALLOW_PRIVATE: Joi.boolean().truthy('1').falsy('0').default(false),
  WEBHOOK_SECRETS_KEY: Joi.string().allow(''),
  LOG_LEVEL: Joi.string().valid('fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent').default('info'),
  PRICE_FRESH_MS: Joi.number().integer().min(100).default(10_000),
  PRICE_STALE_MAX_MS: Joi.number().integer().min(0).default(300_000),
  // an hour: a live TradFi contract's last price rarely sits still that long; a weekend or holiday lasts a day or more
  TRADFI_FROZEN_MS: Joi.number().integer().min(0).default(3_600_000),
  QUOTE_CACHE_MS: Joi.number().integer().min(0).max(5_000).default(200),
  STREAM_SILENCE_MS: Joi.number().integer().min(100).default(30_000),
  FEED_LEASE_MS: Joi.number().integer().min(200).default(10_000),
  SHUTDOWN_GRACE_MS: Joi.number().integer().min(0).default(10_000),
  HEAP_GROWING_PERCENT: Joi.number().integer().min(0).max(1000).default(300),
  HEAP_PRETENURING: Joi.boolean().truthy('1').falsy('0').default(false),
  ...venueUrlSchema(FEED_VENUES),
  FEED_VENUES: Joi.string()
    .pattern(/^\s*(binance|bybit|okx|bitget)\s*(,\s*(binance|bybit|okx|bitget)\s*)*$/)
    .default(FEED_VENUES.join(','))
    .messages({ 'string.pattern.base': 'must be a comma-separated list of binance, bybit, okx, bitget' }),
  UNIVERSE_SIZE: Joi.number().integer().min(1).max(2000).default(500),
  UNIVERSE_REFRESH_MS: Joi.number().integer().min(1000).default(300_000),
  AGGREGATE_THROTTLE_MS: Joi.number().integer().min(10).default(250),
  DEPTH_REFRESH_MS: Joi.number().integer().min(0).max(60_000).default(3000),
  STREAM_RECONNECT_MAX_MS: Joi.number().integer().min(250).default(30_000),
  REST_TIMEOUT_MS: Joi.number().integer().min(100).default(10_000),
  HISTORY_CACHE_MS: Joi.number().integer().min(0).default(60_000),
  ...upstreamSchema(),
  ...providerUrlSchema(),
  ...liquidationSchema(),
  SCREENER_SIZE: Joi.number().integer().min(1).max(200).default(50),
  SCREENER_INTERVAL: Joi.number().integer().valid(5, 15, 60, 240).default(60),
  STREAM_TICK_MS: Joi.number().integer().min(50).default(2_000),
  STREAM_MAX_AGE_MS: Joi.number()
    .integer()
    .min(1_000)
    .default(6 * 3_600_000),
  STREAM_SLOT_TTL_MS: Joi.number().integer().min(500).default(30_000),
  RELAY_LEASE_MS: Joi.number().integer().min(200).default(10_000),
  RELAY_SCAN_MS: Joi.number().integer().min(100).default(5_000),
  ...webhookDeliverySchema(),
  STATUS_SAMPLE_MS: Joi.number().integer().min(500).default(15_000),
  STATUS_FEED_STALE_MS: Joi.number().integer().min(1_000).default(FEED_STALE_MS),
  STATUS_CACHE_MS: Joi.number().integer().min(0).default(10_000),
  // no shorter than the longest window a plan reads (trades, report, equity): a prune must not change what a client sees
  TRADE_RETENTION_DAYS: Joi.number().integer().min(LONGEST_HISTORY_DAYS).default(LONGEST_HISTORY_DAYS),
  TRADE_PRUNE_PER_RUN: Joi.number().integer().min(1).default(20_000),
  // a token a person could guess or an empty one would open the dashboard: at least 16 characters
  OPS_TOKEN: Joi.string().allow('').min(16).pattern(/^\S+$/).messages({ 'string.pattern.base': 'must not contain whitespace' }),
  METRICS_TOKEN: Joi.string().allow('').min(16).pattern(/^\S+$/).messages({ 'string.pattern.base': 'must not contain whitespace' }),
  METRICS_PORT: Joi.number().integer().min(0).max(65535),
  AI_BASE_URL: Joi.string().uri({ scheme: ['http', 'https'] }),
  AI_MODEL: Joi.string().trim().max(200),
  AI_API_KEY: Joi.string().trim().max(500),
  AI_TIMEOUT_MS: Joi.number().integer().min(100).default(8_000),
  // the site (e-mail sign-in)
  SITE_URL: Joi.string().uri({ scheme: ['http', 'https'] }),
  SMTP_URL: Joi.string().uri({ scheme: ['smtp', 'smtps'] }),
  MAIL_FROM: Joi.string().max(200).default('Perpdesk <no-reply@perpdesk.local>'),
  MAIL_OUTBOX: Joi.boolean().truthy('1').falsy('0').default(false),
  NODE_ENV: Joi.string().allow(''),
  SITE_COOKIE_SECURE: Joi.boolean().truthy('1').falsy('0'),
  SIGNIN_EMAIL_RATE_LIMIT: Joi.number().integer().min(1).default(3),
  SIGNIN_IP_RATE_LIMIT: Joi.number().integer().min(1).default(10),
  SIGNIN_EMAIL_DAILY_LIMIT: Joi.number().integer().min(1).default(20),
  REPLAY_CANDLE_TTL_S: Joi.number().integer().min(60).default(86_400),
  REPLAY_CONCURRENCY: Joi.number().integer().min(1).max(10_000).default(200),
}).unknown(true);

function parseFeedVenues(raw: string): FeedVenue[] {
  const wanted = new Set(raw.split(',').map((s) => s.trim()));
  return FEED_VENUES.filter((venue) => wanted.has(venue));
}

export { ConfigError };

/** The names of every environment variable the service reads (deployment files are checked against them). */
export const configVariableNames = (): string[] => Object.keys((schema.describe() as { keys?: object }).keys ?? {});

/** REDIS_URL as the connection factory reads it: marked `cluster:` for a Redis Cluster (several seeds are one). */
function redisAddress(url: string | undefined, cluster: boolean): string | undefined {
  if (url === undefined) {
    if (cluster) throw new ConfigError('REDIS_CLUSTER: needs REDIS_URL (the private redis-server is one node)');
    return undefined;
  }
  const marked = url.startsWith('cluster:');
  if (!cluster && !marked && url.includes(','))
    throw new ConfigError('REDIS_URL: several nodes name a Redis Cluster: set REDIS_CLUSTER=true');
  return cluster ? clusterAddress(url) : url;
}

/** Reads and validates the environment once; a bad value throws a ConfigError naming the variable. */
export function loadConfig(env: NodeJS.ProcessEnv | Record<string, string | undefined>): Config {
  const { value, error } = schema.validate(env, { abortEarly: true, convert: true });
  if (error) {
    const detail = error.details[0];
    const name = String(detail?.path[0] ?? 'config');
    const message = detail?.message.replace(/^"[^"]*" /, '') ?? error.message;
    throw new ConfigError(`${name}: ${withoutSecretValue(name, message, env[name])}`);
  }
  const secretsKey = webhookSecretsKey(value.WEBHOOK_SECRETS_KEY, value.NODE_ENV === 'production');
  if (typeof secretsKey === 'string') throw new ConfigError(`WEBHOOK_SECRETS_KEY: ${secretsKey}`);
  // sockets renew their slots on the tick's cadence: a slot must outlive a few ticks
  if (value.STREAM_SLOT_TTL_MS < 3 * value.STREAM_TICK_MS) throw new ConfigError('STREAM_SLOT_TTL_MS: must be at least 3 x STREAM_TICK_MS');
  if (value.MAIL_OUTBOX && value.NODE_ENV === 'production') {
    throw new ConfigError('MAIL_OUTBOX: the development outbox logs sign-in links; not with NODE_ENV=production (set SMTP_URL)');
  }
  // with MARKET_SOURCE=sim and no SIM_URL, the sim of `npm run sim` on this host
  const simUrl: string = value.SIM_URL ?? `http://127.0.0.1:${value.SIM_PORT}`;
  return {
    port: value.PORT,
    host: value.HOST,
    role: value.ROLE,
    redisUrl: redisAddress(value.REDIS_URL, value.REDIS_CLUSTER),
    redisDataDir: value.REDIS_DATA_DIR,
    redisAppendFsync: value.REDIS_APPENDFSYNC,
    redisCommandTimeoutMs: value.REDIS_COMMAND_TIMEOUT_MS,
    marketSource: value.MARKET_SOURCE,
    simUrl: value.SIM_URL,
    simPort: value.SIM_PORT,
    publicRateLimit: value.PUBLIC_RATE_LIMIT,
    badKeyRateLimit: value.BAD_KEY_RATE_LIMIT,
    whsinkRateLimit: value.WHSINK_RATE_LIMIT,
    whsinkMaxSinks: value.WHSINK_MAX_SINKS,
    whsinkClientMaxSinks: value.WHSINK_CLIENT_MAX_SINKS,
    trustProxy: parseTrustProxy(value.TRUST_PROXY),
    webhookAllowPrivate: value.WEBHOOK_ALLOW_PRIVATE,
    webhookSecretsKey: secretsKey,
    logLevel: value.LOG_LEVEL,
    priceFreshMs: value.PRICE_FRESH_MS,
    priceStaleMaxMs: value.PRICE_STALE_MAX_MS,
    tradfiFrozenMs: value.TRADFI_FROZEN_MS,
    quoteCacheMs: value.QUOTE_CACHE_MS,
    streamSilenceMs: value.STREAM_SILENCE_MS,
    feedLeaseMs: value.FEED_LEASE_MS,
    shutdownGraceMs: value.SHUTDOWN_GRACE_MS,
    heapGrowingPercent: value.HEAP_GROWING_PERCENT,
    heapPretenuring: value.HEAP_PRETENURING,
    venueUrls: venueUrlsFrom(FEED_VENUES, LIVE_VENUE_URLS, value, value.MARKET_SOURCE, simUrl),
    feedVenues: parseFeedVenues(value.FEED_VENUES),
    universeSize: value.UNIVERSE_SIZE,
    universeRefreshMs: value.UNIVERSE_REFRESH_MS,
    aggregateThrottleMs: value.AGGREGATE_THROTTLE_MS,
    depthRefreshMs: value.DEPTH_REFRESH_MS,
    streamReconnectMaxMs: value.STREAM_RECONNECT_MAX_MS,
    restTimeoutMs: value.REST_TIMEOUT_MS,
    historyCacheMs: value.HISTORY_CACHE_MS,
    upstream: upstreamSettings(value),
    providerUrls: providerUrlsFrom(value, value.MARKET_SOURCE, simUrl),
    ...liquidationSettings(value, value.MARKET_SOURCE, simUrl),
    screenerSize: value.SCREENER_SIZE,
    screenerIntervalMinutes: value.SCREENER_INTERVAL,
    push: {
      streamTickMs: value.STREAM_TICK_MS,
      streamMaxAgeMs: value.STREAM_MAX_AGE_MS,
      streamSlotTtlMs: value.STREAM_SLOT_TTL_MS,
      relayLeaseMs: value.RELAY_LEASE_MS,
      relayScanMs: value.RELAY_SCAN_MS,
      webhookTimeoutMs: value.WEBHOOK_TIMEOUT_MS,
      webhookRetryBaseMs: value.WEBHOOK_RETRY_BASE_MS,
      webhookLockMs: value.WEBHOOK_LOCK_MS,
    },
    statusSampleMs: value.STATUS_SAMPLE_MS,
    statusFeedStaleMs: value.STATUS_FEED_STALE_MS,
    statusCacheMs: value.STATUS_CACHE_MS,
    tradeRetentionDays: value.TRADE_RETENTION_DAYS,
    tradePrunePerRun: value.TRADE_PRUNE_PER_RUN,
    opsToken: value.OPS_TOKEN || undefined,
    metricsToken: value.METRICS_TOKEN || undefined,
    metricsPort: value.METRICS_PORT,
    ai: {
      provider:
        value.AI_BASE_URL && value.AI_MODEL && value.AI_API_KEY
          ? { baseUrl: value.AI_BASE_URL, model: value.AI_MODEL, apiKey: value.AI_API_KEY }
          : undefined,
      timeoutMs: value.AI_TIMEOUT_MS,
    },
    site: {
      url: value.SITE_URL === undefined ? undefined : new URL(value.SITE_URL).origin,
      smtpUrl: value.SMTP_URL,
      mailFrom: value.MAIL_FROM,
      devOutbox: value.MAIL_OUTBOX,
      cookieSecure: value.SITE_COOKIE_SECURE ?? value.NODE_ENV !== 'development',
      signInPerEmail: value.SIGNIN_EMAIL_RATE_LIMIT,
      signInPerIp: value.SIGNIN_IP_RATE_LIMIT,
      signInPerEmailDay: value.SIGNIN_EMAIL_DAILY_LIMIT,
    },
    replay: { candleTtlS: value.REPLAY_CANDLE_TTL_S, concurrency: value.REPLAY_CONCURRENCY },
  };
}

/** The config for tests and tools: defaults plus overrides, validated the same way. */
export function configWith(overrides: Record<string, string | undefined> = {}): Config {
  return loadConfig({ LOG_LEVEL: 'silent', ...overrides });
}
