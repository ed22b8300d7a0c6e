import type { ScreenerService } from '../../../shared/screener/screener-service.js';
import { JsonTextCache, snapshotRoute } from '../../routing/json-text.js';
import { defineRoutes, type RouteGroup } from '../../routing/route-catalog.js';

export interface ScreenerRouteOptions {
  screener: ScreenerService;
  cacheMs: number;
}

export function screenerRoutes({ screener, cacheMs }: ScreenerRouteOptions): RouteGroup {
  const cache = new JsonTextCache(cacheMs);
  return defineRoutes([
    snapshotRoute(cache, {
      path: '/api/v1/screener',
      tag: 'screener',
      summary: 'Top USDT perpetuals by volume with a 0-100 technical score, verdict, RSI, MACD, trend and an ATR setup when decisive',
      description:
        'Computed every minute on 1h candles (the timeframe is in the answer): RSI(14), MACD(12,26,9), EMA 20/50/200, ATR(14). ' +
        'Score weights: trend 40, MACD line 20, histogram 10, RSI 30; bullish at 50 and above. A setup (entry, stop-loss 1.5 ATR, ' +
        'take-profits at 1R, 2R, 3R, leverage) only at 70 and above (long) or 30 and below (short). 503 before the first run.',
      style: 'envelope',
      errors: ['upstream_unavailable'],
      example: {
        response: {
          timeframe: '1h',
          intervalMinutes: 60,
          bars: 250,
          computedAt: 1767225600000,
          universe: 50,
          skipped: [],
          rows: [
            {
              symbol: 'BTCUSDT',
              price: 65012.5,
              score: 78,
              verdict: 'bullish',
              decisive: true,
              rsi: 64.2,
              macd: { macd: 312.4, signal: 250.1, histogram: 62.3 },
              trend: 'up',
              ema: { ema20: 64500, ema50: 63800, ema200: 61000 },
              atr: 420.5,
              setup: { dir: 'long', entry: 65012.5, sl: 64381.8, tp1: 65643.3, tp2: 66274, tp3: 66904.8, lev: 20 },
            },
          ],
          updatedAt: 1767225600000,
          stale: false,
        },
      },
      read: () => screener.latest(),
    }),
  ]);
}
