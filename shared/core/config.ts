import Joi from 'joi';

export type Role = 'all' | 'api' | 'feed' | 'worker';
export type MarketSource = 'live' | 'sim';
/** Express `trust proxy`: false, a hop count, or a list of addresses/subnets. */
export type TrustProxy = boolean | number | string[];

export interface Config {
  port: number;
  host: string;
  role: Role;
  redisUrl: string | undefined;
  /** Where the private redis-server keeps its append-only file when REDIS_URL is unset. */
  redisDataDir: string;
  marketSource: MarketSource;
  simUrl: string | undefined;
  simPort: number;
  publicRateLimit: number;
  trustProxy: TrustProxy;
  webhookAllowPrivate: boolean;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** A venue's last price counts toward the aggregate only while younger than this. */
  priceFreshMs: number;
  /** A stream with no message for this long is treated as down and reconnected. */
  streamSilenceMs: number;
  /** How long the feed lease lives without renewal; a standby takes over after it lapses. */
  feedLeaseMs: number;
  shutdownGraceMs: number;
}

const schema = Joi.object({
  PORT: Joi.number().integer().min(0).max(65535).default(8080),
  HOST: Joi.string().default('0.0.0.0'),
  ROLE: Joi.string().valid('all', 'api', 'feed', 'worker').default('all'),
  REDIS_URL: Joi.string().uri({ scheme: ['redis', 'rediss'] }),
  REDIS_DATA_DIR: Joi.string().default('.data/redis'),
  MARKET_SOURCE: Joi.string().valid('live', 'sim').default('live'),
  SIM_URL: Joi.string().uri({ scheme: ['http', 'https'] }),
  SIM_PORT: Joi.number().integer().min(0).max(65535).default(8090),
  PUBLIC_RATE_LIMIT: Joi.number().integer().min(1).default(60),
  TRUST_PROXY: Joi.string().default('false'),
  WEBHOOK_ALLOW_PRIVATE: Joi.boolean().truthy('1').falsy('0').default(false),
  LOG_LEVEL: Joi.string().valid('fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent').default('info'),
  PRICE_FRESH_MS: Joi.number().integer().min(100).default(10_000),
  STREAM_SILENCE_MS: Joi.number().integer().min(100).default(30_000),
  FEED_LEASE_MS: Joi.number().integer().min(200).default(10_000),
  SHUTDOWN_GRACE_MS: Joi.number().integer().min(0).default(10_000),
}).unknown(true);

export class ConfigError extends Error {}

function parseTrustProxy(raw: string): TrustProxy {
  const value = raw.trim();
  if (value === 'false' || value === '') return false;
  if (value === 'true') return true;
  if (/^\d+$/.test(value)) return Number(value);
  const list = value.split(',').map((s) => s.trim()).filter(Boolean);
  const addressLike = /^[0-9a-fA-F:.]+(\/\d{1,3})?$|^(loopback|linklocal|uniquelocal)$/;
  const bad = list.find((entry) => !addressLike.test(entry));
  if (bad !== undefined) throw new ConfigError(`TRUST_PROXY: "${bad}" is not false, a hop count, or an address list`);
  return list;
}

/** Reads and validates the environment once; a bad value throws a ConfigError naming the variable. */
export function loadConfig(env: NodeJS.ProcessEnv | Record<string, string | undefined>): Config {
  const { value, error } = schema.validate(env, { abortEarly: true, convert: true });
  if (error) {
    const detail = error.details[0];
    const name = String(detail?.path[0] ?? 'config');
    throw new ConfigError(`${name}: ${detail?.message.replace(/^"[^"]*" /, '') ?? error.message}`);
  }
  return {
    port: value.PORT,
    host: value.HOST,
    role: value.ROLE,
    redisUrl: value.REDIS_URL,
    redisDataDir: value.REDIS_DATA_DIR,
    marketSource: value.MARKET_SOURCE,
    simUrl: value.SIM_URL,
    simPort: value.SIM_PORT,
    publicRateLimit: value.PUBLIC_RATE_LIMIT,
    trustProxy: parseTrustProxy(value.TRUST_PROXY),
    webhookAllowPrivate: value.WEBHOOK_ALLOW_PRIVATE,
    logLevel: value.LOG_LEVEL,
    priceFreshMs: value.PRICE_FRESH_MS,
    streamSilenceMs: value.STREAM_SILENCE_MS,
    feedLeaseMs: value.FEED_LEASE_MS,
    shutdownGraceMs: value.SHUTDOWN_GRACE_MS,
  };
}

/** The config for tests and tools: defaults plus overrides, validated the same way. */
export function configWith(overrides: Record<string, string | undefined> = {}): Config {
  return loadConfig({ LOG_LEVEL: 'silent', ...overrides });
}
