/** Time constants of the simulated market. */
export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;
/** Closed minutes backfilled at start (history REST calls need data right away). */
export const HISTORY_MINUTES = 1500;

export const floorMinute = (t: number): number => Math.floor(t / MINUTE) * MINUTE;
