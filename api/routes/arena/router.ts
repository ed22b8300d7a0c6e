import type { ServerResponse } from 'node:http';
import type { ArenaRow } from '../../../shared/arena/arena-rollup.js';
import type { ArenaService } from '../../../shared/arena/arena-service.js';
import { SEASON_DAYS } from '../../../shared/engine/arena-season.js';
import { MIN_CLOSES } from '../../../shared/engine/arena-stats.js';
import {
  arrayOf,
  bodySchema,
  boolean,
  epochMs,
  integer,
  nullable,
  number,
  objectSchema,
  okTrue,
  oneOfValues,
  string,
} from '../../../shared/core/json-schema.js';
import { JsonTextCache, sendJsonText } from '../../routing/json-text.js';
import { defineRoutes, type RouteGroup } from '../../routing/route-catalog.js';
import { arenaQuery } from './schemas.js';

export interface ArenaRouteOptions {
  arena: ArenaService;
  /** Every request of a season shares one answer per this long (60 s, the spec's cache). */
  cacheMs: number;
}

const ARENA_ROW = objectSchema<ArenaRow>(
  'A ranked book of the season',
  {
    rank: integer('1 for the highest realized P&L; equal P&L shares a rank'),
    who: string("The account's public handle (never its e-mail or a key); its books share it"),
    account: string('The book: main or its name'),
    closes: integer('Closes in the season'),
    wins: integer('Closes with P&L above zero'),
    win_rate_pct: nullable(number('Wins over closes, percent')),
    pnl_usd: number('Realized P&L in the season'),
    return_pct: number('Realized P&L over the 10,000 starting balance, percent'),
    avg_roe_pct: nullable(number('Mean ROE of the closes, percent')),
    liquidations: integer(),
    open_positions: integer('Open positions of the book when the board was computed'),
    open_margin_usd: number(),
    open_unrealized_usd: number('What the open positions would settle at mark, net of fees and funding'),
    pnl_incl_open_usd: number('pnl_usd + open_unrealized_usd'),
    realism: bodySchema({
      slippage_closes: integer('Closes filled with slippage'),
      tiered_closes: integer('Closes with tiered maintenance margin'),
      label: oneOfValues(['off', 'partial', 'on'], 'off: every close used the engine defaults; on: every close used slippage and tiers'),
    }),
  },
  {},
);

const ARENA_RESPONSE = bodySchema({
  ok: okTrue,
  season: integer('Season number'),
  season_start: string('First day, UTC (YYYY-MM-DD)'),
  season_end: string('The day after the last, UTC'),
  seasons: bodySchema({ oldest: integer(), current: integer() }),
  min_closes: integer(),
  note: string(),
  computed_ts: nullable(epochMs('When the rollup computed the board')),
  final: boolean('The season is over and its board will not change'),
  rows: arrayOf(ARENA_ROW),
});

export function arenaRoutes({ arena, cacheMs }: ArenaRouteOptions): RouteGroup {
  const cache = new JsonTextCache(cacheMs);
  return defineRoutes([
    {
      method: 'get',
      path: '/api/arena',
      tag: 'meta',
      summary: `Public arena board: ${SEASON_DAYS}-day UTC seasons, books with at least ${MIN_CLOSES} closes ranked by realized P&L`,
      description:
        `Keyless, cached ${cacheMs / 1000} s. Season 1 began 2026-01-05 00:00 UTC; a close counts in the season of its close time; ` +
        "replay trades never count. A scheduled rollup ranks the season every minute; the open-book fields are the shown books' open " +
        'positions at mark as of computed_ts. season: the current season or one of the 6 before it, else 400 bad_season.',
      style: 'bare',
      query: arenaQuery,
      errors: ['bad_season'],
      response: ARENA_RESPONSE,
      handle: async ({ query, res }: { query: { season?: number }; res: ServerResponse }) =>
        sendJsonText(res, await cache.get(`season:${query.season ?? 'current'}`, () => arena.board(query.season))),
    },
  ]);
}
