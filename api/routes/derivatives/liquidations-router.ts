/**
 * The collector's routes: 24 h totals per coin and per exchange (envelope), and the four raw
 * passthroughs (feed, live, recent, clusters) that answer the collector's object without the
 * envelope; their errors still come in the envelope.
 */
import type { ClusterAnswer, ClusterService } from '../../../shared/derivatives/clusters/cluster-service.js';
import type { LiquidationService } from '../../../shared/derivatives/liquidations/liquidation-service.js';
import { JsonTextCache, sendJsonText, snapshotRoute, type SnapshotRoute } from '../../routing/json-text.js';
import { MicroCache } from '../../routing/micro-cache.js';
import type { RouteDefinition } from '../../routing/route-catalog.js';
import { clusterQuery, FEED_EVENTS, liveQuery, recentQuery } from './schemas.js';

export interface LiquidationRouteOptions {
  liquidations: LiquidationService;
  clusters: ClusterService;
}

/** The feed is meant for a 3 s edge cache (poll every 3 to 5 s). */
const FEED_CACHE_CONTROL = 'public, max-age=3, s-maxage=3';
const FEED_CACHE_MS = 1_000;
const TOTALS_CACHE_MS = 2_000;
const CLUSTER_CACHE_MS = 15_000;

/** What both totals' examples begin with. */
const TOTALS_HEAD = { window: '24h', updatedAt: 1767225600000, totalUsd: 1250000 };

const sampleEvent = {
  ts: 1767225600000,
  exchange: 'binance',
  symbol: 'BTCUSDT',
  side: 'long_liquidated',
  price: 64950.1,
  qty: 0.25,
  notional: 16237.53,
};

export function liquidationRoutes({ liquidations, clusters }: LiquidationRouteOptions): RouteDefinition[] {
  // answers shared by every request for a moment are serialized once (api/routing/json-text.ts)
  const feedCache = new JsonTextCache(FEED_CACHE_MS);
  const totalsCache = new JsonTextCache(TOTALS_CACHE_MS);
  const clusterCache = new MicroCache<ClusterAnswer>(CLUSTER_CACHE_MS);
  const totals = (route: Pick<SnapshotRoute, 'path' | 'summary' | 'description' | 'example' | 'read'>): RouteDefinition =>
    snapshotRoute(totalsCache, { tag: 'derivatives', style: 'envelope', ...route });
  return [
    totals({
      path: '/api/v1/liquidations',
      summary: '24 h liquidation totals per coin, longs vs shorts, across the nine exchanges',
      description: "Measured by the service's own collector (see /api/v1/venues for what each exchange's stream covers).",
      example: {
        response: {
          ...TOTALS_HEAD,
          longUsd: 800000,
          shortUsd: 450000,
          coins: [
            {
              symbol: 'BTC',
              pair: 'BTCUSDT',
              longUsd: 500000,
              shortUsd: 250000,
              totalUsd: 750000,
              longPct: 66.67,
              longCount: 41,
              shortCount: 17,
            },
          ],
        },
      },
      read: () => liquidations.coins(),
    }),
    totals({
      path: '/api/v1/venues',
      summary: 'Per exchange (nine): 24 h liquidation total, market share, long/short split and stream coverage',
      example: {
        response: {
          ...TOTALS_HEAD,
          venues: [
            {
              exchange: 'binance',
              totalUsd: 500000,
              sharePct: 40,
              longUsd: 300000,
              shortUsd: 200000,
              longPct: 60,
              shortPct: 40,
              count: 37,
              stream: 'USDⓈ-M !forceOrder@arr',
              coverage: 'At most the latest liquidation per symbol per second is pushed: totals undercount in busy seconds.',
            },
          ],
        },
      },
      read: () => liquidations.venues(),
    }),
    {
      method: 'get',
      path: '/api/v1/feed',
      tag: 'derivatives',
      summary: `The newest ${FEED_EVENTS} liquidations of all exchanges, newest first (raw object, no envelope)`,
      description: 'A few seconds behind the exchanges; Cache-Control allows a 3 s edge cache: poll every 3 to 5 s.',
      style: 'bare',
      example: { response: { events: [sampleEvent] } },
      handle: async ({ res }) => {
        const text = await feedCache.get('feed', () => liquidations.feed(FEED_EVENTS));
        res.setHeader('Cache-Control', FEED_CACHE_CONTROL);
        sendJsonText(res, text);
      },
    },
    {
      method: 'get',
      path: '/api/v1/liquidations/live',
      tag: 'derivatives',
      summary: 'Recent raw liquidations of one symbol, newest first, at most 24 h old (raw object). Default limit 100, max 1000',
      style: 'bare',
      query: liveQuery,
      errors: ['unknown_symbol'],
      example: { query: { symbol: 'BTC', limit: '1' }, response: { symbol: 'BTCUSDT', events: [sampleEvent], updatedAt: 1767225600000 } },
      handle: ({ query }: { query: { symbol: string; limit: number } }) => liquidations.live(query.symbol, query.limit),
    },
    {
      method: 'get',
      path: '/api/v1/liquidations/recent',
      tag: 'derivatives',
      summary: 'Long vs short liquidated dollars of one symbol in time buckets (raw object). Default 60 minutes, max 43200',
      description:
        'Buckets grow with the window: up to 60 minutes, 1-minute buckets; up to 6 h, 5; up to 24 h, 15; up to 7 days, 60; up to 30 ' +
        'days, 240. ' +
        'Buckets start at UTC multiples of their size, oldest first; the first may cover only part of its size.',
      style: 'bare',
      query: recentQuery,
      errors: ['unknown_symbol'],
      example: {
        query: { symbol: 'BTC', minutes: '2' },
        response: {
          symbol: 'BTCUSDT',
          minutes: 2,
          bucket_minutes: 1,
          long_usd: 16238,
          short_usd: 0,
          buckets: [
            { ts: 1767225540000, long_usd: 0, short_usd: 0 },
            { ts: 1767225600000, long_usd: 16238, short_usd: 0 },
          ],
          updatedAt: 1767225600000,
        },
      },
      handle: ({ query }: { query: { symbol: string; minutes: number } }) => liquidations.recent(query.symbol, query.minutes),
    },
    {
      method: 'get',
      path: '/api/v1/clusters',
      tag: 'derivatives',
      summary: 'Modelled liquidation clusters of one symbol: where positions opened in the last 24 h would be liquidated (raw object)',
      description:
        'Model estimates, not observed events: open-interest increases are spread over the candles traded meanwhile, split ' +
        'long/short and over a 5x-100x leverage mix; ' +
        'levels already crossed since, and positions closed by open-interest decreases, are removed. updatedAt is the time of the ' +
        'newest input. side: the positions that level would liquidate.',
      style: 'bare',
      query: clusterQuery,
      errors: ['unknown_symbol'],
      example: {
        query: { symbol: 'BTC' },
        response: {
          clusters: [
            { price: 61750, side: 'long', est_notional: 1250000 },
            { price: 68250, side: 'short', est_notional: 980000 },
          ],
          updatedAt: 1767225600000,
        },
      },
      handle: async ({ query }: { query: { symbol: string } }) => {
        const pair = await liquidations.resolveSymbol(query.symbol);
        return clusterCache.get(pair, () => clusters.clusters(pair));
      },
    },
  ];
}
