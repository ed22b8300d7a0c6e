/**
 * New York wall-clock time to UTC, by the US daylight-saving rule in force since 2007: EDT (UTC-4)
 * from the second Sunday of March at 02:00 to the first Sunday of November at 02:00, EST (UTC-5)
 * otherwise. Pure; no time-zone database needed.
 */

const HOUR_MS = 3_600_000;

/** Day of the week, 0 = Sunday. */
function weekday(year: number, month: number, day: number): number {
  return new Date(Date.UTC(year, month - 1, day)).getUTCDay();
}

/** Day of the month of the nth Sunday (n from 1). */
export function nthSunday(year: number, month: number, n: number): number {
  return 1 + ((7 - weekday(year, month, 1)) % 7) + 7 * (n - 1);
}

/** Whether New York keeps daylight time at this local date and hour. */
export function isNewYorkDst(year: number, month: number, day: number, hour: number): boolean {
  if (month < 3 || month > 11) return false;
  if (month > 3 && month < 11) return true;
  if (month === 3) {
    const start = nthSunday(year, 3, 2);
    return day > start || (day === start && hour >= 2);
  }
  const end = nthSunday(year, 11, 1);
  return day < end || (day === end && hour < 2);
}

/** 'YYYY-MM-DD' and 'HH:MM' New York time -> epoch ms. */
export function newYorkToUtc(date: string, time: string): number {
  const d = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  const t = /^(\d{2}):(\d{2})$/.exec(time);
  if (!d || !t) throw new RangeError(`expected YYYY-MM-DD and HH:MM, got ${date} ${time}`);
  const [year, month, day] = [Number(d[1]), Number(d[2]), Number(d[3])];
  const [hour, minute] = [Number(t[1]), Number(t[2])];
  const offsetHours = isNewYorkDst(year, month, day, hour) ? 4 : 5;
  return Date.UTC(year, month - 1, day, hour, minute) + offsetHours * HOUR_MS;
}
