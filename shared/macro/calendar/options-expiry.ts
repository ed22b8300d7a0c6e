/**
 * Crypto options expiries as Deribit (the largest venue) settles them: the last Friday of each
 * month at 08:00 UTC; the March, June, September and December ones are the quarterly expiries.
 * Pure.
 */

export interface OptionsExpiry {
  ts: number;
  year: number;
  month: number;
  quarterly: boolean;
}

/** Day of the month of the last Friday. */
export function lastFriday(year: number, month: number): number {
  const last = new Date(Date.UTC(year, month, 0));
  const back = (last.getUTCDay() - 5 + 7) % 7;
  return last.getUTCDate() - back;
}

export function optionsExpiry(year: number, month: number): OptionsExpiry {
  return { ts: Date.UTC(year, month - 1, lastFriday(year, month), 8, 0, 0), year, month, quarterly: month % 3 === 0 };
}

/** Every expiry of a year, in order. */
export function expiriesOfYear(year: number): OptionsExpiry[] {
  return Array.from({ length: 12 }, (_, i) => optionsExpiry(year, i + 1));
}
