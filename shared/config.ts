/**
 * The config, composed: each feature declares its variables and turns them into its settings beside its code
 * (`<feature>-settings.ts`); this file puts them together in one schema, read once into one typed object. The schema's
 * order is the order variables are checked in (the first bad one is named).
 */
import Joi from 'joi';
import { aiSchema, aiSettings, type AiSettings } from './ai/ai-settings.js';
import { ConfigError } from './core/config-error.js';
import { withoutSecretValue } from './core/config-secrets.js';
import {
  lifecycleSchema,
  lifecycleSettings,
  logSchema,
  operatorSchema,
  operatorSettings,
  serverSchema,
  serverSettings,
  trustProxySchema,
  trustProxySettings,
  type LifecycleSettings,
  type LogLevel,
  type OperatorSettings,
  type ServerSettings,
} from './core/process-settings.js';
import type { TrustProxy } from './core/trust-proxy.js';
import { liquidationSchema, liquidationSettings, type LiquidationSettings } from './derivatives/liquidations/liquidation-urls.js';
import { providerUrlSchema, providerUrlsFrom, type DataProvider } from './http/provider-urls.js';
import {
  feedSchema,
  feedSettings,
  marketSourceSchema,
  marketSourceSettings,
  priceSchema,
  priceSettings,
  simBaseUrl,
  type FeedSettings,
  type MarketSourceSettings,
  type PriceSettings,
} from './market/market-settings.js';
import { retentionSchema, retentionSettings, type RetentionSettings } from './paper/positions/retention-settings.js';
import { replaySchema, replaySettings, type ReplaySettings } from './paper/replay/replay-settings.js';
import {
  pushSchema,
  pushSettings,
  webhookTargetSchema,
  webhookTargetSettings,
  whsinkSchema,
  whsinkSettings,
  type PushSettings,
  type WebhookTargetSettings,
  type WhsinkSettings,
} from './push/push-settings.js';
import { edgeLimitSchema, edgeLimitSettings, type EdgeLimitSettings } from './rate-limit/rate-limit-settings.js';
import { redisSchema, redisSettings, type RedisSettings } from './redis/redis-settings.js';
import { screenerSchema, screenerSettings, type ScreenerSettings } from './screener/screener-settings.js';
import { siteSchema, siteSettings, type SiteSettings } from './site/site-settings.js';
import { statusSchema, statusSettings, type StatusSettings } from './status/status-settings.js';

/**
 * Config extends LiquidationSettings (shared/derivatives/liquidations/liquidation-urls.ts): liquidationUrls (base URLs of gate, bitmex,
 * deribit, htx, bitfinex), liqVenues (liquidation connectors this feed runs), liqFlushMs, liqDedupMs,
 * liqRawMax, derivPairs (pairs of the funding and open-interest jobs).
 */
export interface Config
  extends
    ServerSettings,
    RedisSettings,
    MarketSourceSettings,
    EdgeLimitSettings,
    WhsinkSettings,
    WebhookTargetSettings,
    PriceSettings,
    LifecycleSettings,
    FeedSettings,
    LiquidationSettings,
    ScreenerSettings,
    StatusSettings,
    RetentionSettings,
    OperatorSettings {
  trustProxy: TrustProxy;
  logLevel: LogLevel;
  /** Base URLs of the macro and regional-quote data providers (ALTERNATIVE_ME_URL, COINGECKO_URL, ...). */
  providerUrls: Record<DataProvider, string>;
  /** Push (shared/push, api/ws): the stream's price tick, socket life and the outbox relay's cadence. */
  push: PushSettings;
  /** /ai: the optional OpenAI-compatible provider (AI_BASE_URL, AI_MODEL, AI_API_KEY) and its timeout (AI_TIMEOUT_MS). */
  ai: AiSettings;
  /** The site: e-mail sign-in, its mail, its session cookie and its sign-in budgets (SITE_URL, SMTP_URL, ...). */
  site: SiteSettings;
  /** Replay of a past day (shared/paper/replay): the candle cache and how many replay clocks one worker process runs. */
  replay: ReplaySettings;
}

const schema = Joi.object({
  ...serverSchema(),
  ...redisSchema(),
  ...marketSourceSchema(),
  ...edgeLimitSchema(),
  ...whsinkSchema(),
  ...trustProxySchema(),
  ...webhookTargetSchema(),
  ...logSchema(),
  ...priceSchema(),
  ...lifecycleSchema(),
  ...feedSchema(),
  ...providerUrlSchema(),
  ...liquidationSchema(),
  ...screenerSchema(),
  ...pushSchema(),
  ...statusSchema(),
  ...retentionSchema(),
  ...operatorSchema(),
  ...aiSchema(),
  ...siteSchema(),
  ...replaySchema(),
}).unknown(true);

export { ConfigError };

/** The names of every environment variable the service reads (deployment files are checked against them). */
export const configVariableNames = (): string[] => Object.keys((schema.describe() as { keys?: object }).keys ?? {});

/** Reads and validates the environment once; a bad value throws a ConfigError naming the variable. */
export function loadConfig(env: NodeJS.ProcessEnv | Record<string, string | undefined>): Config {
  const { value, error } = schema.validate(env, { abortEarly: true, convert: true });
  if (error) {
    const detail = error.details[0];
    const name = String(detail?.path[0] ?? 'config');
    const message = detail?.message.replace(/^"[^"]*" /, '') ?? error.message;
    throw new ConfigError(`${name}: ${withoutSecretValue(name, message, env[name])}`);
  }
  // the checks across variables, in this order: the secrets key, the stream's slot, the outbox, then Redis's address
  const webhookTarget = webhookTargetSettings(value);
  const push = pushSettings(value);
  const site = siteSettings(value);
  const redis = redisSettings(value);
  const source = marketSourceSettings(value);
  const simUrl = simBaseUrl(source);
  return {
    ...serverSettings(value),
    ...redis,
    ...source,
    ...edgeLimitSettings(value),
    ...whsinkSettings(value),
    ...trustProxySettings(value),
    ...webhookTarget,
    logLevel: value.LOG_LEVEL,
    ...priceSettings(value),
    ...lifecycleSettings(value),
    ...feedSettings(value, source.marketSource, simUrl),
    providerUrls: providerUrlsFrom(value, source.marketSource, simUrl),
    ...liquidationSettings(value, source.marketSource, simUrl),
    ...screenerSettings(value),
    push,
    ...statusSettings(value),
    ...retentionSettings(value),
    ...operatorSettings(value),
    ai: aiSettings(value),
    site,
    replay: replaySettings(value),
  };
}

/** The config for tests and tools: defaults plus overrides, validated the same way. */
export function configWith(overrides: Record<string, string | undefined> = {}): Config {
  return loadConfig({ LOG_LEVEL: 'silent', ...overrides });
}
