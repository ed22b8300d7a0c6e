/** The arena board as the route answers it: the stored board of the season asked for (the current one by default). */
import type { Clock } from '../core/clock.js';
import { AppError } from '../core/errors.js';
import { answerableSeasons, SEASON_DAYS, seasonBounds, SEASONS_KEPT } from '../engine/arena-season.js';
import { MIN_CLOSES } from '../engine/arena-stats.js';
import type { ArenaRow, StoredBoard } from './arena-rollup.js';
import type { ArenaStore } from './arena-store.js';

export interface ArenaAnswer {
  ok: true;
  season: number;
  /** The season's first day and the day after its last, UTC (YYYY-MM-DD). */
  season_start: string;
  season_end: string;
  /** The oldest and the current season answerable with ?season=. */
  seasons: { oldest: number; current: number };
  min_closes: number;
  note: string;
  /** When the rollup computed the board (the open-book fields are as of then); null before its first run of the season. */
  computed_ts: number | null;
  final: boolean;
  rows: ArenaRow[];
}

const day = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

export class ArenaService {
  constructor(
    private readonly store: ArenaStore,
    private readonly clock: Clock,
  ) {}

  /** The board of `season` (default: the current one); 400 bad_season outside the seasons kept. */
  async board(season?: number): Promise<ArenaAnswer> {
    const seasons = answerableSeasons(this.clock.now());
    const asked = season ?? seasons.current;
    if (asked < seasons.oldest || asked > seasons.current) {
      throw new AppError(
        'bad_season',
        `season must be between ${seasons.oldest} and ${seasons.current} (the current season and the ${SEASONS_KEPT} before it)`,
        { param: 'season', ...seasons },
      );
    }
    const stored = await this.store.board(asked);
    const board = stored === null ? null : (JSON.parse(stored) as StoredBoard);
    const { start, end } = seasonBounds(asked);
    return {
      ok: true,
      season: asked,
      season_start: day(start),
      season_end: day(end),
      seasons,
      min_closes: MIN_CLOSES,
      note:
        `${SEASON_DAYS}-day UTC season ${asked} (${day(start)} to ${day(end)}), ranked by realized P&L among books with at least ` +
        `${MIN_CLOSES} closes in the season; open-book fields at mark as of computed_ts; replay trades never count. ` +
        'win_rate_pct counts closed trades only: a book that closes its winners and holds its losers shows a better rate ' +
        'than it has; pnl_incl_open_usd counts the open ones at mark.',
      computed_ts: board?.computed_ts ?? null,
      final: board?.final ?? false,
      rows: board?.rows ?? [],
    };
  }
}
