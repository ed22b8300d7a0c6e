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
import { PLAN_IDS, type PlanId } from '../shared/paper/plans.js';
import { createApiPod, type ApiPod } from '../shared/api-pod.js';
import { DOCS_PATH, DOCS_PATHS, docsRouter } from './docs/docs-page.js';
import { keyedRequests, metricsReadable, scrape } from '../shared/metrics/metrics.js';
import { cors } from './middleware/cors.js';
import { errorHandler, notFoundHandler } from './middleware/error-handler.js';
import { httpMetricsObserver } from './middleware/http-metrics.js';
import { opsAuth } from './middleware/ops-auth.js';
import { chargeKeyedUpgrade, chargeRefusedKey, rateLimit } from './middleware/rate-limit.js';
import { HEALTH_PATH, healthRoutes, Readiness, READY_PATH } from './middleware/health.js';
import { redisGate } from './middleware/redis-gate.js';
import { requestLogger } from './middleware/request-logger.js';
import { QUEUE_DASHBOARD_PATH, queueDashboard } from './ops/queue-dashboard.js';
import type { Middleware } from './routing/http-types.js';
import { catalogFastPath } from './routing/catalog-fast-path.js';
import { RouteCatalog } from './routing/route-catalog.js';
import { registerRouteGroups } from './routes/index.js';
import { mcpOtherMethods, mcpRoutes } from './mcp/mcp-router.js';
import { WHSINK_PATH, whsinkRouters } from './routes/whsink/router.js';
import { SITE_TRADING_PREFIX, siteTradingRouter } from './routes/site/trade-router.js';
import { sessionStreamCheck, type SiteAuthDeps } from './routes/site/site-session.js';
import type { KeyCheck } from './ws/stream-client.js';
import { sitePages } from './site/site-pages.js';
import { BINANCE_DATA_PREFIX } from './binance/data-routes.js';
import { BINANCE_PREFIX, BINANCE_SPOT_PREFIX, binanceRouter, futuresDataRoutes, futuresRoutes, spotRoutes } from './binance/router.js';
import { binanceApiKey } from './binance/signed-auth.js';

export interface AppDeps {
  /** The process's stores and services (shared/domain.ts), on the API's Redis connection. */
  domain: Domain;
  logger: Logger;
  /** The rate limiter's key lookup; default: the keys in Redis (services.apiKeys). */
  apiKeys?: ApiKeyResolver;
  /** The process's readiness checks, which /readyz answers (the server adds its own); default: a set of its own. */
  readiness?: Readiness;
  /** What the API adds on the domain's connection (shared/api-pod.ts); default: built over `domain` here. */
  pod?: ApiPod;
}

/** The domain, the pod's limiter and site, and what the API adds over them: key checks, the usage counts of keyed calls. */
export interface AppServices extends Domain, Pick<ApiPod, 'site' | 'limiter' | 'signInBudgets'> {
  /** Resolves API keys from Redis (the rate limiter's default). */
  apiKeys: ApiKeyResolver;
  /** Pass to defineRoutes({ authenticate }) for keyed route groups. */
  authenticate: Authenticate;
  /** Keyed calls counted in memory and written in batches; flushed when the app closes. */
  usage: UsageBatcher;
}

function createServices({ domain, logger }: AppDeps, metricsOn: boolean, pod: ApiPod): AppServices {
  const { accounts, clock } = domain;
  const apiKeys = new StoredApiKeyResolver({ accounts: accounts.accounts, keys: accounts.keys, clock });
  const usage = new UsageBatcher(accounts.keys, (error) => logger.warn({ err: error }, 'key usage not recorded'));
  const authenticate = createAuthenticate({ resolver: apiKeys, usage, clock, onKeyed: metricsOn ? keyedRequestCounter() : undefined });
  const { site, limiter, signInBudgets } = pod;
  return { ...domain, apiKeys, authenticate, usage, site, limiter, signInBudgets };
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
  /** Charges a stream upgrade to its key's per-minute budget (its HTTP calls'): the 429 to answer past it, else null. */
  chargeKeyedUpgrade(apiKey: string): Promise<AppError | null>;
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
  const { config } = deps.domain;
  const pod = deps.pod ?? createApiPod(deps.domain, logger);
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
  const { limiter } = pod;
  const services = createServices(deps, metricsOn, pod);
  const siteAuth: SiteAuthDeps = {
    sessions: services.site.sessions,
    accounts: services.accounts.accounts,
    books: services.accounts.books,
    clock: services.clock,
    siteUrl: config.site.url,
    cookieSecure: config.site.cookieSecure,
    limiter,
    publicLimit: config.publicRateLimit,
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
  const gate = redisGate(pod.health);
  const apiRequests = [...everyRequest, gate, limit];
  const onError = errorHandler(logger);

  // outside the catalog: a path parameter, and a body recorded as sent; a delivery is metered by its address's budget
  const whsink = whsinkRouters({ store: services.push.whsink, clock: services.clock });

  app.use(everyRequest);
  // every /ops path, known or not, asks for the token first; without OPS_TOKEN all of them are the unknown path's 404
  const operator = opsAuth(config.opsToken, { limiter, perMinute: config.badKeyRateLimit });
  app.use(OPS_PREFIX, operator);
  // bull-board's page loads its scripts, styles and images from its own static path on this origin, so helmet's CSP
  // needs no exception for it (test/e2e/ops-dashboard.test.ts watches for refusals in a real browser)
  const dashboard = config.opsToken === undefined ? undefined : queueDashboard(pod.openQueues);
  if (dashboard) app.use(QUEUE_DASHBOARD_PATH, dashboard.handler);
  app.use(API_PREFIX, gate);
  app.use(whsink.deliveries);
  // the site's trading calls are metered by their session's account (sessionAuthenticate), not the keyless IP budget
  app.use(API_PREFIX, (req, res, next) => (req.originalUrl.startsWith(`${SITE_TRADING_PREFIX}/`) ? next() : limit(req, res, next)));
  app.use(catalog.expressHandler());
  // the Binance USDⓈ-M dialect at Binance's paths, its key in X-MBX-APIKEY on the same plan budgets
  const binanceLimit = rateLimit({
    limiter,
    keys: deps.apiKeys ?? services.apiKeys,
    publicLimit: config.publicRateLimit,
    badKeyLimit: config.badKeyRateLimit,
    readKey: binanceApiKey,
  });
  const binance = { services, before: [gate], limit: binanceLimit, logger };
  app.use(BINANCE_PREFIX, binanceRouter(binance, futuresRoutes(services)));
  app.use(BINANCE_SPOT_PREFIX, binanceRouter(binance, spotRoutes()));
  app.use(BINANCE_DATA_PREFIX, binanceRouter(binance, futuresDataRoutes(services)));
  app.use(siteTradingRouter(catalog, siteAuth));
  app.use(whsink.echo);

  app.use(healthRoutes(pod.health, deps.readiness ?? new Readiness()));
  // every pod's own metrics, behind the scrape token (404 without one: nothing exposed by default)
  app.get(
    METRICS_PATH,
    opsAuth(config.metricsToken, { limiter, perMinute: config.badKeyRateLimit }, 'METRICS_TOKEN'),
    async (_req, res) => {
      const { contentType, body } = await scrape();
      res.set('Content-Type', contentType).send(body);
    },
  );
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
        await Promise.all([dashboard?.close(), services.replay.close()]);
      }
    },
    siteSession: sessionStreamCheck(siteAuth),
    chargeRefusedKey: async (req) => (await chargeRefusedKey(limiter, config.badKeyRateLimit, proxyAddr(req, trust))).overBudget,
    chargeKeyedUpgrade: (apiKey) => chargeKeyedUpgrade({ limiter, keys: deps.apiKeys ?? services.apiKeys }, apiKey),
  };
}
