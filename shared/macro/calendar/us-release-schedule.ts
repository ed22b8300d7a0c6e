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

const LAPSE_2025 = 'moved by the 2025 lapse in appropriations';
const LAPSE_2026 = 'moved by the 2026 lapse in appropriations';

export const CPI_RELEASES: readonly BlsRelease[] = [
  { date: '2023-01-12', ref: '2022-12' }, { date: '2023-02-14', ref: '2023-01' }, { date: '2023-03-14', ref: '2023-02' },
  { date: '2023-04-12', ref: '2023-03' }, { date: '2023-05-10', ref: '2023-04' }, { date: '2023-06-13', ref: '2023-05' },
  { date: '2023-07-12', ref: '2023-06' }, { date: '2023-08-10', ref: '2023-07' }, { date: '2023-09-13', ref: '2023-08' },
  { date: '2023-10-12', ref: '2023-09' }, { date: '2023-11-14', ref: '2023-10' }, { date: '2023-12-12', ref: '2023-11' },
  { date: '2024-01-11', ref: '2023-12' }, { date: '2024-02-13', ref: '2024-01' }, { date: '2024-03-12', ref: '2024-02' },
  { date: '2024-04-10', ref: '2024-03' }, { date: '2024-05-15', ref: '2024-04' }, { date: '2024-06-12', ref: '2024-05' },
  { date: '2024-07-11', ref: '2024-06' }, { date: '2024-08-14', ref: '2024-07' }, { date: '2024-09-11', ref: '2024-08' },
  { date: '2024-10-10', ref: '2024-09' }, { date: '2024-11-13', ref: '2024-10' }, { date: '2024-12-11', ref: '2024-11' },
  { date: '2025-01-15', ref: '2024-12' }, { date: '2025-02-12', ref: '2025-01' }, { date: '2025-03-12', ref: '2025-02' },
  { date: '2025-04-10', ref: '2025-03' }, { date: '2025-05-13', ref: '2025-04' }, { date: '2025-06-11', ref: '2025-05' },
  { date: '2025-07-15', ref: '2025-06' }, { date: '2025-08-12', ref: '2025-07' }, { date: '2025-09-11', ref: '2025-08' },
  { date: '2025-10-24', ref: '2025-09', note: `${LAPSE_2025} (was 2025-10-15)` },
  { date: '2025-12-18', ref: '2025-11', note: `${LAPSE_2025} (was 2025-12-10); the October 2025 CPI was not produced` },
  { date: '2026-01-13', ref: '2025-12' },
  { date: '2026-02-13', ref: '2026-01', note: `${LAPSE_2026} (was 2026-02-11)` },
  { date: '2026-03-11', ref: '2026-02' }, { date: '2026-04-10', ref: '2026-03' }, { date: '2026-05-12', ref: '2026-04' },
  { date: '2026-06-10', ref: '2026-05' }, { date: '2026-07-14', ref: '2026-06' }, { date: '2026-08-12', ref: '2026-07' },
  { date: '2026-09-11', ref: '2026-08' }, { date: '2026-10-14', ref: '2026-09' }, { date: '2026-11-10', ref: '2026-10' },
  { date: '2026-12-10', ref: '2026-11' },
];

export const NFP_RELEASES: readonly BlsRelease[] = [
  { date: '2023-01-06', ref: '2022-12' }, { date: '2023-02-03', ref: '2023-01' }, { date: '2023-03-10', ref: '2023-02' },
  { date: '2023-04-07', ref: '2023-03' }, { date: '2023-05-05', ref: '2023-04' }, { date: '2023-06-02', ref: '2023-05' },
  { date: '2023-07-07', ref: '2023-06' }, { date: '2023-08-04', ref: '2023-07' }, { date: '2023-09-01', ref: '2023-08' },
  { date: '2023-10-06', ref: '2023-09' }, { date: '2023-11-03', ref: '2023-10' }, { date: '2023-12-08', ref: '2023-11' },
  { date: '2024-01-05', ref: '2023-12' }, { date: '2024-02-02', ref: '2024-01' }, { date: '2024-03-08', ref: '2024-02' },
  { date: '2024-04-05', ref: '2024-03' }, { date: '2024-05-03', ref: '2024-04' }, { date: '2024-06-07', ref: '2024-05' },
  { date: '2024-07-05', ref: '2024-06' }, { date: '2024-08-02', ref: '2024-07' }, { date: '2024-09-06', ref: '2024-08' },
  { date: '2024-10-04', ref: '2024-09' }, { date: '2024-11-01', ref: '2024-10' }, { date: '2024-12-06', ref: '2024-11' },
  { date: '2025-01-10', ref: '2024-12' }, { date: '2025-02-07', ref: '2025-01' }, { date: '2025-03-07', ref: '2025-02' },
  { date: '2025-04-04', ref: '2025-03' }, { date: '2025-05-02', ref: '2025-04' }, { date: '2025-06-06', ref: '2025-05' },
  { date: '2025-07-03', ref: '2025-06' }, { date: '2025-08-01', ref: '2025-07' }, { date: '2025-09-05', ref: '2025-08' },
  { date: '2025-11-20', ref: '2025-09', note: `${LAPSE_2025} (was 2025-10-03)` },
  { date: '2025-12-16', ref: '2025-11', note: `${LAPSE_2025}; carries October 2025 payrolls (the October report was not produced)` },
  { date: '2026-01-09', ref: '2025-12' },
  { date: '2026-02-11', ref: '2026-01', note: `${LAPSE_2026} (was 2026-02-06)` },
  { date: '2026-03-06', ref: '2026-02' }, { date: '2026-04-03', ref: '2026-03' }, { date: '2026-05-08', ref: '2026-04' },
  { date: '2026-06-05', ref: '2026-05' }, { date: '2026-07-02', ref: '2026-06' }, { date: '2026-08-07', ref: '2026-07' },
  { date: '2026-09-04', ref: '2026-08' }, { date: '2026-10-02', ref: '2026-09' }, { date: '2026-11-06', ref: '2026-10' },
  { date: '2026-12-04', ref: '2026-11' },
];
