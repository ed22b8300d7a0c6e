import type { AppServices } from '../app.js';
import type { RouteCatalog } from '../routing/route-catalog.js';
import { arenaRoutes } from './arena/router.js';
import { aiRoutes } from './ai/router.js';
import { botAccountRoutes } from './bot-account/router.js';
import { botMarketRoutes } from './bot-market/router.js';
import { botReplayRoutes } from './bot-replay/router.js';
import { botTradingRoutes } from './bot-trading/router.js';
import { calcRoutes } from './calc/router.js';
import { derivativesRoutes } from './derivatives/router.js';
import { latamRoutes } from './latam/router.js';
import { macroRoutes } from './macro/router.js';
import { CachedQuotes } from './market/cached-quotes.js';
import { marketRoutes } from './market/router.js';
import { metadataRoutes } from './meta/metadata-router.js';
import { openApiRoutes } from './meta/router.js';
import { pingRoutes } from './ping/router.js';
import { screenerRoutes } from './screener/router.js';
import { siteRoutes } from './site/router.js';
import { statusRoutes } from './status/router.js';
import { streamRoutes } from './stream/router.js';
import { webhookRoutes } from './webhooks/router.js';

/*
 * One layout for every route group: api/routes/<group>/
 *   router.ts            the group: `<group>Routes(options)`, one options object of what it needs, answers a RouteGroup
 *   <resource>-router.ts a large group's part, named by resource; takes the group's options, answers route definitions
 *   schemas.ts           the Joi schemas of its queries and bodies (responses.ts: the JSON schemas of its answers)
 *   anything else        a helper named for what it does (cached-quotes.ts, candle-view.ts)
 * Bot routes come in v1 and v2 through one helper, botRoute (api/routing/bot-route.ts).
 */

/** Screener, macro and regional answers change every minute at most: hot requests share one Redis read per second. */
const SNAPSHOT_CACHE_MS = 1_000;
/** The status page reads every component: once per 10 s per pod, whatever the traffic. */
/** The arena board: the spec's 60 s cache. */
const ARENA_CACHE_MS = 60_000;

/** Every route group of the API, in one list; `outsideCatalog` names the routes Express serves beside them (for ping). */
export function registerRouteGroups(catalog: RouteCatalog, services: AppServices, outsideCatalog: readonly string[]): void {
  const { config, clock, market, accounts, authenticate, trading } = services;
  catalog.add(pingRoutes({ catalog, publicLimit: config.publicRateLimit, outsideCatalog }));
  const quotes = new CachedQuotes(market, config.quoteCacheMs);
  catalog.add(marketRoutes({ market, quotes, cacheMs: config.quoteCacheMs }));
  catalog.add(botMarketRoutes({ market, clock, quotes }));
  catalog.add(botAccountRoutes({ accounts: accounts.service, authenticate }));
  catalog.add(botTradingRoutes({ trading, authenticate, replay: services.replay.service }));
  catalog.add(botReplayRoutes({ replay: services.replay.service, authenticate }));
  catalog.add(webhookRoutes({ webhooks: services.push.webhooks, authenticate }));
  catalog.add(streamRoutes({ tickMs: config.push.streamTickMs, authenticate }));
  catalog.add(calcRoutes());
  catalog.add(screenerRoutes({ screener: services.screener, cacheMs: SNAPSHOT_CACHE_MS }));
  catalog.add(macroRoutes({ macro: services.macro, cacheMs: SNAPSHOT_CACHE_MS }));
  catalog.add(latamRoutes({ latam: services.latam, cacheMs: SNAPSHOT_CACHE_MS }));
  catalog.add(derivativesRoutes(services.derivatives));
  catalog.add(statusRoutes({ status: services.status, cacheMs: config.statusCacheMs, feedStaleMs: config.statusFeedStaleMs }));
  catalog.add(metadataRoutes());
  catalog.add(arenaRoutes({ arena: services.arena.service, cacheMs: ARENA_CACHE_MS }));
  catalog.add(aiRoutes({ ai: services.ai, authenticate }));
  catalog.add(openApiRoutes({ catalog }));
  catalog.add(
    siteRoutes({
      site: services.site,
      accounts: accounts.accounts,
      books: accounts.books,
      budgets: services.signInBudgets,
      siteUrl: config.site.url,
      cookieSecure: config.site.cookieSecure,
      signInLimits: config.site,
    }),
  );
}
