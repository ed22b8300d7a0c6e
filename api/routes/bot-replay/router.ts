/**
 * Replay of a past UTC day, per key: GET /replay (cursor, price, bars up to the cursor), POST
 * /replay start or stop. While a key's replay exists, its trading routes act on the replay journal
 * (bot-trading/router.ts, bookTrading).
 */
import type { KeyContext } from '../../../shared/paper/key-context.js';
import type { ReplayService } from '../../../shared/paper/replay/replay-service.js';
import type { Authenticate } from '../../middleware/authenticate.js';
import { keyedBotRoutes } from '../../routing/bot-route.js';
import { defineRoutes, type RouteGroup } from '../../routing/route-catalog.js';
import { REPLAY_RESPONSES } from './responses.js';
import { replayBody, replayQuery, type ReplayBody } from './schemas.js';

export interface BotReplayRouteOptions {
  replay: ReplayService;
  authenticate: Authenticate;
}

const JOURNAL =
  "While the replay exists (running or finished, until stop), this key's open, close, close_all, sltp, positions, trades, account " +
  'and balance ' +
  'act on a separate replay journal priced at the cursor (rows carry src "replay"; market entries of the replay\'s symbol only: ' +
  'replay_market_only, replay_symbol_only). The clock sweeps every replayed minute (stops, targets, trailing stops, liquidations) ' +
  'as the live ' +
  'minute sweep does. Other keys of the account and the live book are untouched; journal events reach no webhook, stream, board, ' +
  'report or equity curve.';

export function botReplayRoutes({ replay, authenticate }: BotReplayRouteOptions): RouteGroup {
  return defineRoutes(
    keyedBotRoutes('bot replay', [
      {
        path: '/replay',
        method: 'get',
        response: REPLAY_RESPONSES.view,
        summary: "This key's replay: cursor, progress, price at the cursor and bars up to it (nothing after the cursor)",
        description: JOURNAL,
        query: replayQuery,
        errors: ['no_data', 'upstream_unavailable', 'upstream_busy'],
        example: {
          query: { interval: '5', bars: '2' },
          response: {
            running: true,
            symbol: 'BTC',
            day: '2026-11-20',
            speed: 60,
            cursor_ts: 1763602200000,
            cursor_iso: '2026-11-20T01:30:00.000Z',
            progress_pct: 6.25,
            price: 91250.5,
            finished: false,
            bars: [
              { time: 1763601600, open: 91000, high: 91400, low: 90950, close: 91200 },
              { time: 1763601900, open: 91200, high: 91300, low: 91100, close: 91250.5 },
            ],
          },
        },
        handle: ({ auth, query }: { auth: KeyContext; query: { interval: number; bars: number } }) => replay.view(auth, query),
      },
      {
        path: '/replay',
        method: 'post',
        response: REPLAY_RESPONSES.act,
        summary:
          'Start a replay of a past UTC day ({symbol, day, speed 1-600, default 60}) or stop it ({act: "stop"}: closes at the ' +
          'cursor, answers the summary)',
        description: JOURNAL,
        body: replayBody,
        errors: [
          'symbol_required',
          'unknown_symbol',
          'day_invalid',
          'day_not_finished',
          'speed_invalid',
          'replay_crypto_only',
          'no_data',
          'no_replay',
          'replay_running',
          'upstream_unavailable',
          'upstream_busy',
          'busy',
        ],
        example: {
          body: { symbol: 'BTC', day: '2026-11-20', speed: 120 },
          response: {
            ok: true,
            replay: {
              id: 'rpmhy2k1a0b1c2d3e4',
              symbol: 'BTC',
              day: '2026-11-20',
              speed: 120,
              start_ts: 1763596800000,
              end_ts: 1763683200000,
              candles: 1440,
              first_price: 91012.4,
            },
          },
        },
        handle: ({ auth, body }: { auth: KeyContext; body: ReplayBody }) =>
          body.act === 'stop' ? replay.stop(auth) : replay.start(auth, body),
      },
    ]),
    { authenticate },
  );
}
