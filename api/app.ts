import express, { type Express } from 'express';
import type { IncomingMessage, RequestListener } from 'node:http';
import proxyAddr from 'proxy-addr';
import type { AppError } from '../shared/core/errors.js';
import helmet from 'helmet';
import type { Logger } from '../shared/core/logger.js';
import type { Domain } from '../shared/domain.js';
import { UsageBatcher } from '../shared/paper/accounts/usage-batcher.js';
import { StoredApiKeyResolver, type ApiKeyResolver } from '../shared/paper/api-key-resolver.js';
import { createAuthenticate, type Authenticate } from './middleware/authenticate.js';
import { PLAN_IDS, PLANS, type PlanId } from '../shared/paper/plans.js';
import { CoalescingLimiter } from '../shared/rate-limit/coalescing-limiter.js';
import { DOCS_PATH, DOCS_PATHS, docsRouter } from './docs/docs-page.js';
import { keyedRequests, metricsReadable, scrape } from '../shared/metrics/metrics.js';
import { cors } from './middleware/cors.js';
import { errorHandler, notFoundHandler } from './middleware/error-handler.js';
import { httpMetricsObserver } from './middleware/http-metrics.js';
import { opsAuth } from './middleware/ops-auth.js';
import { chargeRefusedKey, rateLimit } from './middleware/rate-limit.js';
import { HEALTH_PATH, healthRoutes, READY_PATH } from './middleware/health.js';
import { redisGate } from './middleware/redis-gate.js';
import { requestLogger } from './middleware/request-logger.js';
import { QUEUE_DASHBOARD_PATH, queueDashboard } from './ops/queue-dashboard.js';
import type { Middleware } from './routing/http-types.js';
import { catalogFastPath } from './routing/catalog-fast-path.js';
import { RouteCatalog } from './routing/route-catalog.js';
import { registerRouteGroups } from './routes/index.js';
import { mcpOtherMethods, mcpRoutes } from './mcp/mcp-router.js';
import { WHSINK_PATH, whsinkRouters } from './routes/whsink/router.js';
import { createSiteServices, type SiteServices } from '../shared/site/site-services.js';
import { siteTradingRouter } from './routes/site/trade-router.js';
import { sessionStreamCheck, type SiteAuthDeps } from './routes/site/site-session.js';
import type { KeyCheck } from './ws/stream-client.js';
import { sitePages } from './site/site-pages.js';

export interface AppDeps {
  /** The process's stores and services (shared/domain.ts), on the API's Redis connection. */
  domain: Domain;
  logger: Logger;
  /** The rate limiter's key lookup; default: the keys in Redis (services.apiKeys). */
  apiKeys?: ApiKeyResolver;
}

/** The domain, and what the API adds over it: key checks and the in-memory usage counts of keyed calls. */
export interface AppServices extends Domain {
  /** Resolves API keys from Redis (the rate limiter's default). */
  apiKeys: ApiKeyResolver;
  /** Pass to defineRoutes({ authenticate }) for keyed route groups. */
  authenticate: Authenticate;
  /** Keyed calls counted in memory and written in batches; flushed when the app closes. */
  usage: UsageBatcher;
  /** The site: e-mail sign-in, sessions, key management (its own redis-om connection, closed with the app). */
  site: SiteServices;
  /** The rate limiter of the API's budgets (the site's sign-in budgets too). */
  limiter: CoalescingLimiter;
}

function createServices({ domain, logger }: AppDeps, metricsOn: boolean, limiter: CoalescingLimiter): AppServices {
  const { accounts, clock, config, redis } = domain;
  const apiKeys = new StoredApiKeyResolver({ accounts: accounts.accounts, keys: accounts.keys, clock });
  const usage = new UsageBatcher(accounts.keys, (error) => logger.warn({ err: error }, 'key usage not recorded'));
  const authenticate = createAuthenticate({ resolver: apiKeys, usage, clock, onKeyed: metricsOn ? keyedRequestCounter() : undefined });
  const site = createSiteServices({ config, redis, clock, accounts, logger });
  return { ...domain, apiKeys, authenticate, usage, site, limiter };
}

export interface App {
  /** The HTTP server's listener: catalog routes straight from Node's http objects, the rest through `app`. */
  listener: RequestListener;
  /** Express: serves everything the listener does not, and would serve the catalog the same way on its own. */
  app: Express;
  catalog: RouteCatalog;
  /** The services the routes call (the WebSocket stream uses them too). */
  services: AppServices;
  /** Writes what the app holds in memory (usage counts) now instead of at its next flush. */
  flush(): Promise<void>;
  /** The last step of a shutdown: flushes, and closes the queue dashboard's connection if it was opened. */
  close(): Promise<void>;
  /**
   * Charges a refused key of a raw request (a stream upgrade) to its client address, as the rate limit charges an
   * HTTP request's: the 429 to answer past the budget, else null.
   */
  chargeRefusedKey(req: IncomingMessage): Promise<AppError | null>;
  /** The stream's check of a site page's socket (its session cookie), null without one. */
  siteSession(req: IncomingMessage, url: URL): (() => Promise<KeyCheck>) | null;
}

const API_PREFIX = '/api';
const METRICS_PATH = '/metrics';
/** The operator routes (the queue dashboard): behind OPS_TOKEN, and not listed by ping. */
const OPS_PREFIX = '/ops';
/** What Express serves outside the catalog, as ping lists it (GET bare, other methods named); /metrics is an operator's, unlisted. */
const OUTSIDE_CATALOG = [HEALTH_PATH, READY_PATH, DOCS_PATH, WHSINK_PATH, `POST ${WHSINK_PATH}`];
/** The fixed paths outside the catalog, as route labels of the HTTP metrics. */
const OUTSIDE_FIXED = new Set([HEALTH_PATH, READY_PATH, ...DOCS_PATHS, METRICS_PATH]);

/** Counts keyed requests by plan, through one counter child per plan resolved up front. */
function keyedRequestCounter(): (plan: PlanId) => void {
  const byPlan = new Map(PLAN_IDS.map((id) => [id, keyedRequests.labels(id)]));
  return (plan) => byPlan.get(plan)?.inc();
}
/** The catalog path a request counts under in the HTTP metrics; a CORS preflight counts under the route it asks about. */
function catalogTemplate(catalog: RouteCatalog, method: string, path: string): string | undefined {
  if (method !== 'OPTIONS') return catalog.find(method, path)?.route.path;
  return (catalog.find('GET', path) ?? catalog.find('POST', path))?.route.path;
}
/** Where Express's app.use(API_PREFIX, ...) applies. */
const underApi = (path: string): boolean => path === API_PREFIX || path.startsWith(`${API_PREFIX}/`);

/** The HTTP app of an API pod. It holds no state: everything it reads or writes is in Redis. */
export function createApp(deps: AppDeps): App {
  const { logger } = deps;
  const { config, redis } = deps.domain;
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', config.trustProxy);
  app.set('etag', false);

  // per-request metrics are recorded only when something can read them
  const metricsOn = metricsReadable(config);
  const catalog = new RouteCatalog();
  const observe = metricsOn
    ? httpMetricsObserver({
        fixed: (method, path) => catalogTemplate(catalog, method, path) ?? (OUTSIDE_FIXED.has(path) ? path : undefined),
        prefixed: [{ prefix: WHSINK_PATH.slice(0, WHSINK_PATH.indexOf(':')), template: WHSINK_PATH }],
      })
    : undefined;
  // every request, then every request under /api: Express and the request listener run the same chain
  const everyRequest: Middleware[] = [
    requestLogger(logger, observe),
    helmet({
      crossOriginResourcePolicy: { policy: 'cross-origin' },
      crossOriginEmbedderPolicy: false,
      // The API and docs are also served over plain http (demo, localhost); upgrading would break the docs script.
      contentSecurityPolicy: { directives: { upgradeInsecureRequests: null } },
    }),
    cors,
  ];
  const limiter = new CoalescingLimiter(redis, [
    config.publicRateLimit,
    config.badKeyRateLimit,
    ...PLAN_IDS.map((id) => PLANS[id].requestsPerMinute),
    config.site.signInPerEmail,
    config.site.signInPerIp,
  ]);
  const services = createServices(deps, metricsOn, limiter);
  const siteAuth: SiteAuthDeps = {
    sessions: services.site.sessions,
    accounts: services.accounts.accounts,
    books: services.accounts.books,
    clock: services.clock,
    siteUrl: config.site.url,
  };
  registerRouteGroups(catalog, services, OUTSIDE_CATALOG);
  const limit = rateLimit({
    limiter,
    keys: deps.apiKeys ?? services.apiKeys,
    publicLimit: config.publicRateLimit,
    badKeyLimit: config.badKeyRateLimit,
    prefetch: catalog.prefetcher(),
  });
  // the MCP tools run their routes in process, each call metered by this limiter and checked by the same authenticate
  catalog.add(mcpRoutes({ catalog, limit, authenticate: services.authenticate, logger }));
  // before the limiter: with Redis down even a key lookup would wait for a reconnect
  const gate = redisGate(redis);
  const apiRequests = [...everyRequest, gate, limit];
  const onError = errorHandler(logger);

  // outside the catalog: a path parameter, and a body recorded as sent; a delivery is metered by its address's budget
  const whsink = whsinkRouters({ store: services.push.whsink, clock: services.clock });

  app.use(everyRequest);
  // every /ops path, known or not, asks for the token first; without OPS_TOKEN all of them are the unknown path's 404
  app.use(OPS_PREFIX, opsAuth(config.opsToken));
  // bull-board's page loads its scripts, styles and images from its own static path on this origin, so helmet's CSP
  // needs no exception for it (test/e2e/ops-dashboard.test.ts watches for refusals in a real browser)
  const dashboard = config.opsToken === undefined ? undefined : queueDashboard(redis);
  if (dashboard) app.use(QUEUE_DASHBOARD_PATH, dashboard.handler);
  app.use(API_PREFIX, gate);
  app.use(whsink.deliveries);
  app.use(API_PREFIX, limit);
  app.use(catalog.expressHandler());
  app.use(siteTradingRouter(catalog, siteAuth));
  app.use(whsink.echo);

  app.use(healthRoutes(redis));
  // every pod's own metrics, behind the operator token (404 without one: nothing exposed by default)
  app.get(METRICS_PATH, opsAuth(config.opsToken), async (_req, res) => {
    const { contentType, body } = await scrape();
    res.set('Content-Type', contentType).send(body);
  });
  app.use(docsRouter());
  app.use(mcpOtherMethods);
  app.use(sitePages());

  app.use(notFoundHandler(catalog));
  app.use(onError);
  const listener = catalogFastPath({ catalog, app, onError, chainFor: (path) => (underApi(path) ? apiRequests : everyRequest) });
  const trust = app.get('trust proxy fn') as Parameters<typeof proxyAddr>[1];
  return {
    listener,
    app,
    catalog,
    services,
    flush: () => services.usage.flush(),
    close: async () => {
      try {
        await services.usage.flush();
      } finally {
        await Promise.all([dashboard?.close(), services.site.close(), services.replay.close()]);
      }
    },
    siteSession: sessionStreamCheck(siteAuth),
    chargeRefusedKey: async (req) => (await chargeRefusedKey(limiter, config.badKeyRateLimit, proxyAddr(req, trust))).overBudget,
  };
}
