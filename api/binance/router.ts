/**
 * The Binance USDⓈ-M dialect, mounted at Binance's own paths (/fapi/...), so a bot that lets you change only the
 * host trades here. Outside the route catalog: its answers and errors are Binance's shapes, not ours. Each request
 * is metered on its key's plan budget (X-MBX-APIKEY) or its address's keyless one, as the native API's are, and
 * reports the minute's count in X-MBX-USED-WEIGHT-1M (every call weighs 1).
 */
import express, { type Router } from 'express';
import type { AppError } from '../../shared/core/errors.js';
import type { Logger } from '../../shared/core/logger.js';
import { binanceError } from '../../shared/binance/binance-errors.js';
import { usdtCoin } from '../../shared/binance/account-shapes.js';
import { requestParams } from '../../shared/binance/signed-request.js';
import type { AppServices } from '../app.js';
import { errorHandler, routeNotFound } from '../middleware/error-handler.js';
import type { ApiRequest, ApiResponse, Middleware } from '../routing/http-types.js';
import { sendJsonText } from '../routing/json-text.js';
import { accountRoutes } from './account-routes.js';
import { algoRoutes } from './algo-routes.js';
import { batchRoutes } from './batch-routes.js';
import { dataRoutes } from './data-routes.js';
import type { BinanceRoute } from './binance-route.js';
import { marketRoutes } from './market-routes.js';
import { modifyAction, modifyRoute } from './modify-route.js';
import { orderReadRoutes } from './order-read-routes.js';
import { orderActions, orderRoutes } from './order-routes.js';
import { authenticateKey, authenticateSigned, signedParts } from './signed-auth.js';
import { userStreamRoutes } from './user-stream-routes.js';

/** Where Binance's USDⓈ-M REST API lives, and the spot API's path (its coins list). */
export const BINANCE_PREFIX = '/fapi';
export const BINANCE_SPOT_PREFIX = '/sapi';
/** A form body is small: a batch of parameters. */
const BODY_LIMIT = '16kb';

/** X-MBX-USED-WEIGHT-1M from what the rate limiter counted (X-RateLimit-Limit minus -Remaining). */
function reportUsedWeight(res: ApiResponse): void {
  const limit = Number(res.getHeader('X-RateLimit-Limit'));
  const remaining = Number(res.getHeader('X-RateLimit-Remaining'));
  if (Number.isFinite(limit) && Number.isFinite(remaining)) res.setHeader('X-MBX-USED-WEIGHT-1M', String(Math.max(0, limit - remaining)));
}

function sendBinanceError(_req: ApiRequest, res: ApiResponse, error: AppError): void {
  if (res.headersSent) return;
  const { status, body } = binanceError(error);
  res.statusCode = status;
  reportUsedWeight(res);
  if (typeof error.details.retry_after === 'number') res.setHeader('Retry-After', String(error.details.retry_after));
  sendJsonText(res, JSON.stringify(body));
}

export interface BinanceRouterDeps {
  services: AppServices;
  /** The API's middleware before the limiter (the Redis gate). */
  before: readonly Middleware[];
  /** The rate limiter, reading the key from X-MBX-APIKEY. */
  limit: Middleware;
  logger: Logger;
}

/** Every route of the dialect under /fapi, in one list. */
export function futuresRoutes(services: AppServices): BinanceRoute[] {
  const { clock, market, trading, derivatives } = services;
  const { leverage, answers, book, listenKeys } = services.binance;
  const orderDeps = { clock, market, trading, leverage, answers, book };
  const actions = orderActions(orderDeps);
  const modify = modifyAction({ market, trading, orders: services.stores.orders }, actions);
  return [
    ...marketRoutes({ clock, market, derivatives, funding: services.stores.funding, depth: services.stores.depth }),
    ...accountRoutes({ clock, market, trading, leverage }),
    ...orderRoutes(orderDeps, actions),
    ...algoRoutes({ clock, market, book }, actions),
    ...orderReadRoutes({ clock, market, book, positions: services.stores.positions }),
    ...userStreamRoutes(listenKeys),
    ...batchRoutes({ market }, actions, modify),
    modifyRoute(modify),
  ];
}

/** The trading statistics under Binance's /futures/data (data-routes.ts BINANCE_DATA_PREFIX). */
export function futuresDataRoutes(services: AppServices): BinanceRoute[] {
  const { clock, market, derivatives } = services;
  return dataRoutes({ clock, market, derivatives, store: services.stores.derivatives });
}

/**
 * The routes under Binance's spot API that a USDⓈ-M client calls: ccxt's loadMarkets with a key asks for the coins
 * (fetchCurrencies) and the margin pairs; USDT is the only coin here, its spot wallet empty, and no margin pairs.
 */
export function spotRoutes(): BinanceRoute[] {
  return [
    { method: 'get', path: '/v1/capital/config/getall', signed: true, handle: () => [usdtCoin()] },
    { method: 'get', path: '/v1/margin/allPairs', signed: true, handle: () => [] },
  ];
}

/**
 * A router of Binance routes (futuresRoutes at BINANCE_PREFIX, futuresDataRoutes at BINANCE_DATA_PREFIX, spotRoutes at
 * BINANCE_SPOT_PREFIX).
 */
export function binanceRouter({ services, before, limit, logger }: BinanceRouterDeps, routes: readonly BinanceRoute[]): Router {
  const router = express.Router();
  const signedDeps = {
    authenticate: services.authenticate,
    secretOf: (accountId: string, keyId: string) => services.accounts.service.hmacSecret(accountId, keyId),
    clock: services.clock,
  };
  router.use(...before, limit, (_req, res, next) => {
    reportUsedWeight(res);
    next();
  });
  router.use(express.text({ type: 'application/x-www-form-urlencoded', limit: BODY_LIMIT }));
  for (const route of routes) {
    router[route.method](route.path, (req, res, next) => {
      const answer = async (): Promise<unknown> => {
        const params = requestParams(signedParts(req));
        if (!route.signed) return route.handle({ params });
        if (route.signed === 'key') return route.handle({ params, auth: await authenticateKey(signedDeps, req, res) });
        return route.handle({ params, auth: await authenticateSigned(signedDeps, req, res) });
      };
      answer().then((body) => sendJsonText(res, JSON.stringify(body)), next);
    });
  }
  router.use((req, _res, next) => next(routeNotFound(req)));
  router.use(errorHandler(logger, sendBinanceError));
  return router;
}
