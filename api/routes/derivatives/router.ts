/** /api/v1 derivatives: funding, open interest, long/short (job snapshots) and the liquidation collector's routes. */
import type { ClusterService } from '../../../shared/derivatives/clusters/cluster-service.js';
import type { DerivativesService } from '../../../shared/derivatives/derivatives-service.js';
import type { LiquidationService } from '../../../shared/derivatives/liquidations/liquidation-service.js';
import { JsonTextCache, snapshotRoute, type SnapshotRoute } from '../../routing/json-text.js';
import { defineRoutes, type RouteDefinition, type RouteGroup } from '../../routing/route-catalog.js';
import { liquidationRoutes } from './liquidations-router.js';

export interface DerivativesRouteOptions {
  derivatives: DerivativesService;
  liquidations: LiquidationService;
  clusters: ClusterService;
}

/** The snapshots change once a minute at most. */
const SNAPSHOT_CACHE_MS = 2_000;

/** An example answer of a snapshot of pairs: BTC's row, after what the snapshot adds besides its pairs. */
function pairsExample(btc: Record<string, unknown>, totals: Record<string, unknown> = {}): SnapshotRoute['example'] {
  return { response: { updatedAt: 1767225600000, count: 1, ...totals, pairs: [{ symbol: 'BTC', pair: 'BTCUSDT', ...btc }] } };
}

export function derivativesRoutes({ derivatives, liquidations, clusters }: DerivativesRouteOptions): RouteGroup {
  const cache = new JsonTextCache(SNAPSHOT_CACHE_MS);
  // every job snapshot: an envelope, 503 until its first refresh
  const jobSnapshot = (route: Pick<SnapshotRoute, 'path' | 'summary' | 'description' | 'example' | 'read'>): RouteDefinition =>
    snapshotRoute(cache, { tag: 'derivatives', style: 'envelope', errors: ['upstream_unavailable'], ...route });
  return defineRoutes([
    jobSnapshot({
      path: '/api/v1/funding',
      summary: 'Funding rates of about 160 USDT perpetuals (Binance, Bybit, OKX and their mean); positive = longs pay shorts',
      description:
        'Rates are per funding interval (intervalHours when known), with the soonest next funding time. Refreshed every minute; 503 ' +
        'until the first refresh.',
      example: pairsExample({
        rate: 0.0001,
        ratePct: 0.01,
        nextFundingTime: 1767254400000,
        intervalHours: 8,
        exchanges: {
          binance: { rate: 0.0001, nextFundingTime: 1767254400000 },
          bybit: { rate: 0.0001, nextFundingTime: 1767254400000, intervalHours: 8 },
        },
      }),
      read: () => derivatives.funding(),
    }),
    jobSnapshot({
      path: '/api/v1/open-interest',
      summary: 'Open interest in USD of about 160 USDT perpetuals, summed over Binance, Bybit and OKX, largest first',
      description: 'Refreshed every minute; 503 until the first refresh.',
      example: pairsExample(
        { oiUsd: 21000000000, exchanges: { binance: 9000000000, bybit: 7000000000, okx: 5000000000 } },
        { totalUsd: 21000000000 },
      ),
      read: () => derivatives.openInterest(),
    }),
    jobSnapshot({
      path: '/api/v1/long-short',
      summary: 'Long vs short account ratio of the majors: the mean of Binance (global accounts) and Bybit (account ratio), 5-minute data',
      description: 'Refreshed every 5 minutes; 503 until the first refresh.',
      example: pairsExample({
        longPct: 62.1,
        shortPct: 37.9,
        ratio: 1.6385,
        ts: 1767225300000,
        exchanges: {
          binance: { longPct: 66.22, shortPct: 33.78, ratio: 1.9603, ts: 1767225300000 },
          bybit: { longPct: 58, shortPct: 42, ratio: 1.381, ts: 1767225300000 },
        },
      }),
      read: () => derivatives.longShort(),
    }),
    ...liquidationRoutes({ liquidations, clusters }),
  ]);
}
