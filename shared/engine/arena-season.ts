/**
 * Arena seasons: 14-day UTC windows counted from a fixed anchor, Monday 5 January 2026 00:00 UTC,
 * when season 1 begins (season n covers [anchor + (n - 1) x 14 days, anchor + n x 14 days)). A close
 * belongs to the season of its close time. Pure: `now` is an argument.
 */

/** Season 1 begins here: Monday 5 January 2026, 00:00:00 UTC. */
export const SEASON_ANCHOR_MS = Date.UTC(2026, 0, 5);
export const SEASON_DAYS = 14;
export const SEASON_MS = SEASON_DAYS * 86_400_000;
/** Finished seasons kept (and answerable with ?season=) beside the current one; older ones expire. */
export const SEASONS_KEPT = 6;

export interface SeasonBounds {
  season: number;
  /** First millisecond of the season. */
  start: number;
  /** First millisecond after it (the next season's start). */
  end: number;
}

/** The season a time falls in (0 and below before the anchor). */
export function seasonOf(ts: number): number {
  return Math.floor((ts - SEASON_ANCHOR_MS) / SEASON_MS) + 1;
}

export function seasonBounds(season: number): SeasonBounds {
  const start = SEASON_ANCHOR_MS + (season - 1) * SEASON_MS;
  return { season, start, end: start + SEASON_MS };
}

/** When a season's stored data expires: once SEASONS_KEPT later seasons have also ended, it is no longer answerable. */
export function seasonExpiresAt(season: number): number {
  return seasonBounds(season + SEASONS_KEPT).end;
}

/** The seasons answerable at `now`: the current one and the SEASONS_KEPT before it (never before season 1). */
export function answerableSeasons(now: number): { oldest: number; current: number } {
  const current = seasonOf(now);
  return { oldest: Math.max(1, current - SEASONS_KEPT), current };
}
