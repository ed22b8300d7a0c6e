/**
 * The US macro release schedule behind /api/v1/calendar: dates and New York times only; UTC is
 * computed (calendar-events.ts). Edit this file when an agency publishes or changes a schedule.
 *
 * Sources:
 * - FOMC: Federal Reserve Board, "Meeting calendars and information",
 *   https://www.federalreserve.gov/monetarypolicy/fomccalendars.htm, and its press releases announcing
 *   the tentative schedules (e.g. 2024-08-09 for 2025 and 2026, 2025-09-05 for 2027).
 *   The policy statement is released at 2:00 p.m. Eastern Time on the second day of each meeting;
 *   the date listed is that day. 2027 dates are tentative.
 * - CPI and Employment Situation (NFP): Bureau of Labor Statistics release schedules,
 *   https://www.bls.gov/schedule/news_release/cpi.htm and https://www.bls.gov/schedule/news_release/empsit.htm,
 *   8:30 a.m. Eastern Time; dates moved by the 2025 and 2026 lapses in appropriations follow
 *   https://www.bls.gov/bls/2025-lapse-revised-release-dates.htm (the October 2025 CPI and the
 *   October 2025 Employment Situation were cancelled; October payrolls came with the November report).
 *   BLS 2027 dates were not in the sources this file was written from: 2027 has FOMC dates only, and
 *   /api/v1/calendar names the missing series in `gaps` (calendar-events.ts scheduleGaps).
 */

export const FOMC_TIME = '14:00';
export const BLS_TIME = '08:30';

export const FOMC_SOURCE = 'https://www.federalreserve.gov/monetarypolicy/fomccalendars.htm';
export const CPI_SOURCE = 'https://www.bls.gov/schedule/news_release/cpi.htm';
export const NFP_SOURCE = 'https://www.bls.gov/schedule/news_release/empsit.htm';

/** FOMC statement days (second day of each meeting). */
export const FOMC_DECISIONS: readonly string[] = [
  '2023-02-01',
  '2023-03-22',
  '2023-05-03',
  '2023-06-14',
  '2023-07-26',
  '2023-09-20',
  '2023-11-01',
  '2023-12-13',
  '2024-01-31',
  '2024-03-20',
  '2024-05-01',
  '2024-06-12',
  '2024-07-31',
  '2024-09-18',
  '2024-11-07',
  '2024-12-18',
  '2025-01-29',
  '2025-03-19',
  '2025-05-07',
  '2025-06-18',
  '2025-07-30',
  '2025-09-17',
  '2025-10-29',
  '2025-12-10',
  '2026-01-28',
  '2026-03-18',
  '2026-04-29',
  '2026-06-17',
  '2026-07-29',
  '2026-09-16',
  '2026-10-28',
  '2026-12-09',
  '2027-01-27',
  '2027-03-17',
  '2027-04-28',
  '2027-06-09',
  '2027-07-28',
  '2027-09-15',
  '2027-10-27',
  '2027-12-08',
];

export interface BlsRelease {
  /** Release day, New York. */
  date: string;
  /** Reference month, YYYY-MM. */
  ref: string;
  /** Set when the date differs from the originally published one. */
  note?: string;
}

/**
 * Releases on these days (per year, MM-DD), each of the month before it, but for the reference month
 * or note `changed` gives a day.
 */
function monthlyReleases(
  daysByYear: Readonly<Record<number, string>>,
  changed: Readonly<Record<string, Partial<Omit<BlsRelease, 'date'>>>>,
): BlsRelease[] {
  const days = Object.entries(daysByYear).flatMap(([year, monthDays]) => monthDays.split(' ').map((monthDay) => `${year}-${monthDay}`));
  return days.map((date) => {
    const [year, month] = date.split('-').map(Number);
    const ref = month === 1 ? `${year - 1}-12` : `${year}-${String(month - 1).padStart(2, '0')}`;
    return { date, ref, ...changed[date] };
  });
}

const LAPSE_2025 = 'moved by the 2025 lapse in appropriations';
const LAPSE_2026 = 'moved by the 2026 lapse in appropriations';

export const CPI_RELEASES: readonly BlsRelease[] = monthlyReleases(
  {
    2023: '01-12 02-14 03-14 04-12 05-10 06-13 07-12 08-10 09-13 10-12 11-14 12-12',
    2024: '01-11 02-13 03-12 04-10 05-15 06-12 07-11 08-14 09-11 10-10 11-13 12-11',
    2025: '01-15 02-12 03-12 04-10 05-13 06-11 07-15 08-12 09-11 10-24 12-18',
    2026: '01-13 02-13 03-11 04-10 05-12 06-10 07-14 08-12 09-11 10-14 11-10 12-10',
  },
  {
    '2025-10-24': { note: `${LAPSE_2025} (was 2025-10-15)` },
    '2025-12-18': { note: `${LAPSE_2025} (was 2025-12-10); the October 2025 CPI was not produced` },
    '2026-02-13': { note: `${LAPSE_2026} (was 2026-02-11)` },
  },
);

export const NFP_RELEASES: readonly BlsRelease[] = monthlyReleases(
  {
    2023: '01-06 02-03 03-10 04-07 05-05 06-02 07-07 08-04 09-01 10-06 11-03 12-08',
    2024: '01-05 02-02 03-08 04-05 05-03 06-07 07-05 08-02 09-06 10-04 11-01 12-06',
    2025: '01-10 02-07 03-07 04-04 05-02 06-06 07-03 08-01 09-05 11-20 12-16',
    2026: '01-09 02-11 03-06 04-03 05-08 06-05 07-02 08-07 09-04 10-02 11-06 12-04',
  },
  {
    '2025-11-20': { ref: '2025-09', note: `${LAPSE_2025} (was 2025-10-03)` },
    '2025-12-16': { note: `${LAPSE_2025}; carries October 2025 payrolls (the October report was not produced)` },
    '2026-02-11': { note: `${LAPSE_2026} (was 2026-02-06)` },
  },
);
