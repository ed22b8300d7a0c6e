/**
 * The economic calendar: FOMC decisions, CPI and NFP releases (from the schedule file), options
 * expiries (computed) and crypto milestones, as events with UTC timestamps. Pure.
 */
import { CRYPTO_MILESTONES } from './crypto-milestones.js';
import { newYorkToUtc } from './new-york-time.js';
import { expiriesOfYear } from './options-expiry.js';
import {
  BLS_TIME,
  CPI_RELEASES,
  CPI_SOURCE,
  FOMC_DECISIONS,
  FOMC_SOURCE,
  FOMC_TIME,
  NFP_RELEASES,
  NFP_SOURCE,
  type BlsRelease,
} from './us-release-schedule.js';

export type EventType = 'fomc' | 'cpi' | 'nfp' | 'options_expiry' | 'crypto';

export interface CalendarEvent {
  /** Epoch ms, UTC. */
  ts: number;
  /** The same instant as ISO 8601 UTC. */
  iso: string;
  type: EventType;
  title: string;
  desc: string;
  /** 1 low, 2 medium, 3 high. */
  impact: 1 | 2 | 3;
}

export const CALENDAR_FIRST_YEAR = 2023;
export const CALENDAR_LAST_YEAR = 2027;
/** Without a year, the calendar lists the events of the next 90 days. */
export const UPCOMING_WINDOW_DAYS = 90;

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

function monthName(ref: string): string {
  const [year, month] = ref.split('-').map(Number);
  return `${MONTHS[month - 1]} ${year}`;
}

const event = (ts: number, type: EventType, title: string, desc: string, impact: 1 | 2 | 3): CalendarEvent => ({
  ts,
  iso: new Date(ts).toISOString(),
  type,
  title,
  desc,
  impact,
});

function blsEvent(release: BlsRelease, type: 'cpi' | 'nfp'): CalendarEvent {
  const what = type === 'cpi' ? 'Consumer Price Index' : 'Employment Situation (nonfarm payrolls, unemployment rate)';
  const title = type === 'cpi' ? `US CPI (${monthName(release.ref)})` : `US jobs report (${monthName(release.ref)})`;
  const source = type === 'cpi' ? CPI_SOURCE : NFP_SOURCE;
  const note = release.note ? `; ${release.note}` : '';
  return event(
    newYorkToUtc(release.date, BLS_TIME),
    type,
    title,
    `${what} for ${monthName(release.ref)}, BLS, 08:30 New York time${note}. ${source}`,
    3,
  );
}

let cache: CalendarEvent[] | undefined;

/** Every event of 2023-2027, oldest first. */
export function allCalendarEvents(): CalendarEvent[] {
  if (cache) return cache;
  const events: CalendarEvent[] = [];
  for (const date of FOMC_DECISIONS) {
    const tentative = date.startsWith('2027') ? ' (tentative)' : '';
    events.push(
      event(
        newYorkToUtc(date, FOMC_TIME),
        'fomc',
        `FOMC rate decision${tentative}`,
        `Policy statement at 14:00 New York time, press conference at 14:30. ${FOMC_SOURCE}`,
        3,
      ),
    );
  }
  for (const release of CPI_RELEASES) events.push(blsEvent(release, 'cpi'));
  for (const release of NFP_RELEASES) events.push(blsEvent(release, 'nfp'));
  for (let year = CALENDAR_FIRST_YEAR; year <= CALENDAR_LAST_YEAR; year++) {
    for (const expiry of expiriesOfYear(year)) {
      const kind = expiry.quarterly ? 'Quarterly' : 'Monthly';
      const desc = `${kind} BTC and ETH options and futures settle: last Friday of ${MONTHS[expiry.month - 1]}, 08:00 UTC (Deribit)`;
      events.push(event(expiry.ts, 'options_expiry', `${kind} crypto options expiry`, desc, expiry.quarterly ? 3 : 2));
    }
  }
  for (const m of CRYPTO_MILESTONES) events.push(event(Date.parse(m.at), 'crypto', m.title, m.desc, m.impact));
  cache = events.sort((a, b) => a.ts - b.ts || a.type.localeCompare(b.type));
  return cache;
}

/** The events of one calendar year (UTC). */
export function eventsOfYear(year: number): CalendarEvent[] {
  const from = Date.UTC(year, 0, 1);
  const to = Date.UTC(year + 1, 0, 1);
  return allCalendarEvents().filter((e) => e.ts >= from && e.ts < to);
}

/** A release series whose schedule in the data file ends inside the asked window. */
export interface ScheduleGap {
  type: 'cpi' | 'nfp';
  /** The last release the data file holds (UTC); nothing of this series is listed after it. */
  last_listed: string;
  note: string;
}

/** Days after a series' last listed release by which its next one is due (BLS releases are monthly). */
const NEXT_RELEASE_DUE_DAYS = 35;

/**
 * The CPI and NFP series whose next release after the last one in the data file falls before `to`:
 * a window reaching past what the agency has published is said in the answer, not left silently short.
 */
export function scheduleGaps(to: number): ScheduleGap[] {
  const gaps: ScheduleGap[] = [];
  for (const [type, releases, source] of [
    ['cpi', CPI_RELEASES, CPI_SOURCE],
    ['nfp', NFP_RELEASES, NFP_SOURCE],
  ] as const) {
    const last = releases.at(-1);
    if (!last) continue;
    const lastTs = newYorkToUtc(last.date, BLS_TIME);
    if (to <= lastTs + NEXT_RELEASE_DUE_DAYS * 86_400_000) continue;
    gaps.push({
      type,
      last_listed: new Date(lastTs).toISOString(),
      note:
        `releases after ${last.date} are not listed: the data file holds the BLS schedule only as far as it was published when the ` +
        `file was last updated (${source})`,
    });
  }
  return gaps;
}

/** Events from `now` (inclusive) to now + UPCOMING_WINDOW_DAYS. */
export function upcomingEvents(now: number, days = UPCOMING_WINDOW_DAYS): CalendarEvent[] {
  const to = now + days * 86_400_000;
  return allCalendarEvents().filter((e) => e.ts >= now && e.ts < to);
}
