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
  '2023-02-01', '2023-03-22', '2023-05-03', '2023-06-14', '2023-07-26', '2023-09-20', '2023-11-01', '2023-12-13',
  '2024-01-31', '2024-03-20', '2024-05-01', '2024-06-12', '2024-07-31', '2024-09-18', '2024-11-07', '2024-12-18',
  '2025-01-29', '2025-03-19', '2025-05-07', '2025-06-18', '2025-07-30', '2025-09-17', '2025-10-29', '2025-12-10',
  '2026-01-28', '2026-03-18', '2026-04-29', '2026-06-17', '2026-07-29', '2026-09-16', '2026-10-28', '2026-12-09',
  '2027-01-27', '2027-03-17', '2027-04-28', '2027-06-09', '2027-07-28', '2027-09-15', '2027-10-27', '2027-12-08',
];

export interface BlsRelease {
  /** Release day, New York. */
  date: string;
  /** Reference month, YYYY-MM. */
  ref: string;
  /** Set when the date differs from the originally published one. */
  note?: string;
}

/** Releases on these days, each of the month before it, but for the reference month or note `changed` gives a day. */
function monthlyReleases(days: readonly string[], changed: Readonly<Record<string, Partial<Omit<BlsRelease, 'date'>>>>): BlsRelease[] {
  return days.map((date) => {
    const [year, month] = date.split('-').map(Number);
    const ref = month === 1 ? `${year - 1}-12` : `${year}-${String(month - 1).padStart(2, '0')}`;
    return { date, ref, ...changed[date] };
  });
}

const LAPSE_2025 = 'moved by the 2025 lapse in appropriations';
const LAPSE_2026 = 'moved by the 2026 lapse in appropriations';

export const CPI_RELEASES: readonly BlsRelease[] = monthlyReleases(
  [
    '2023-01-12', '2023-02-14', '2023-03-14', '2023-04-12', '2023-05-10', '2023-06-13', '2023-07-12', '2023-08-10',
    '2023-09-13', '2023-10-12', '2023-11-14', '2023-12-12', '2024-01-11', '2024-02-13', '2024-03-12', '2024-04-10',
    '2024-05-15', '2024-06-12', '2024-07-11', '2024-08-14', '2024-09-11', '2024-10-10', '2024-11-13', '2024-12-11',
    '2025-01-15', '2025-02-12', '2025-03-12', '2025-04-10', '2025-05-13', '2025-06-11', '2025-07-15', '2025-08-12',
    '2025-09-11', '2025-10-24', '2025-12-18', '2026-01-13', '2026-02-13', '2026-03-11', '2026-04-10', '2026-05-12',
    '2026-06-10', '2026-07-14', '2026-08-12', '2026-09-11', '2026-10-14', '2026-11-10', '2026-12-10',
  ],
  {
    '2025-10-24': { note: `${LAPSE_2025} (was 2025-10-15)` },
    '2025-12-18': { note: `${LAPSE_2025} (was 2025-12-10); the October 2025 CPI was not produced` },
    '2026-02-13': { note: `${LAPSE_2026} (was 2026-02-11)` },
  },
);

export const NFP_RELEASES: readonly BlsRelease[] = monthlyReleases(
  [
    '2023-01-06', '2023-02-03', '2023-03-10', '2023-04-07', '2023-05-05', '2023-06-02', '2023-07-07', '2023-08-04',
    '2023-09-01', '2023-10-06', '2023-11-03', '2023-12-08', '2024-01-05', '2024-02-02', '2024-03-08', '2024-04-05',
    '2024-05-03', '2024-06-07', '2024-07-05', '2024-08-02', '2024-09-06', '2024-10-04', '2024-11-01', '2024-12-06',
    '2025-01-10', '2025-02-07', '2025-03-07', '2025-04-04', '2025-05-02', '2025-06-06', '2025-07-03', '2025-08-01',
    '2025-09-05', '2025-11-20', '2025-12-16', '2026-01-09', '2026-02-11', '2026-03-06', '2026-04-03', '2026-05-08',
    '2026-06-05', '2026-07-02', '2026-08-07', '2026-09-04', '2026-10-02', '2026-11-06', '2026-12-04',
  ],
  {
    '2025-11-20': { ref: '2025-09', note: `${LAPSE_2025} (was 2025-10-03)` },
    '2025-12-16': { note: `${LAPSE_2025}; carries October 2025 payrolls (the October report was not produced)` },
    '2026-02-11': { note: `${LAPSE_2026} (was 2026-02-06)` },
  },
);
