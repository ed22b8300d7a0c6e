import express, { type Express } from 'express';
import helmet from 'helmet';
import type { Redis } from 'ioredis';
import { systemClock, type Clock } from '../shared/core/clock.js';
import type { Config } from '../shared/core/config.js';
import { MarketService } from '../shared/market/market-service.js';
import { createMarketStore } from '../shared/market/market-store.js';
import type { Logger } from '../shared/core/logger.js';
import { noApiKeys, type ApiKeyResolver } from '../shared/paper/api-key-resolver.js';
import { PLAN_IDS, PLANS } from '../shared/paper/plans.js';
import { CoalescingLimiter } from '../shared/rate-limit/coalescing-limiter.js';
import { docsRouter } from './docs/docs-page.js';
import { cors } from './middleware/cors.js';
import { errorHandler, notFoundHandler } from './middleware/error-handler.js';
import { rateLimit } from './middleware/rate-limit.js';
import { requestLogger } from './middleware/request-logger.js';
import { RouteCatalog } from './routing/route-catalog.js';
import { registerRouteGroups } from './routes/index.js';

export interface AppDeps {
  config: Config;
  redis: Redis;
  logger: Logger;
  apiKeys?: ApiKeyResolver;
  clock?: Clock;
}

/** The services the routes call, built once per app from its dependencies. */
export interface AppServices {
  config: Config;
  clock: Clock;
  market: MarketService;
}

function createServices(deps: AppDeps): AppServices {
  const clock = deps.clock ?? systemClock;
  const { config } = deps;
  const store = createMarketStore(deps.redis, config, clock);
  const market = new MarketService(store, clock, { freshMs: config.priceFreshMs, staleMaxMs: config.priceStaleMaxMs });
  return { config, clock, market };
}

export interface App {
  app: Express;
  catalog: RouteCatalog;
}

/** The HTTP app of an API pod. It holds no state: everything it reads or writes is in Redis. */
export function createApp(deps: AppDeps): App {
  const { config, redis, logger } = deps;
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', config.trustProxy);
  app.set('etag', false);

  app.use(requestLogger(logger));
  app.use(
    helmet({
      crossOriginResourcePolicy: { policy: 'cross-origin' },
      crossOriginEmbedderPolicy: false,
      // The API and docs are also served over plain http (demo, localhost); upgrading would break the docs script.
      contentSecurityPolicy: { directives: { upgradeInsecureRequests: null } },
    }),
  );
  app.use(cors);

  app.get('/healthz', (_req, res) => {
    res.json({ ok: true, ts: Date.now() });
  });
  app.get('/readyz', async (_req, res) => {
    try {
      await redis.ping();
      res.json({ ok: true, redis: 'up', ts: Date.now() });
    } catch {
      res.status(503).json({ ok: false, redis: 'down', ts: Date.now() });
    }
  });
  app.use(docsRouter());

  const limiter = new CoalescingLimiter(redis, [config.publicRateLimit, ...PLAN_IDS.map((id) => PLANS[id].requestsPerMinute)]);
  app.use('/api', rateLimit({ limiter, keys: deps.apiKeys ?? noApiKeys, publicLimit: config.publicRateLimit, logger }));
  app.use(express.json({ limit: '64kb' }));

  const catalog = new RouteCatalog();
  registerRouteGroups(catalog, createServices(deps));
  for (const router of catalog.routers()) app.use(router);

  app.use(notFoundHandler);
  app.use(errorHandler(logger));
  return { app, catalog };
}
