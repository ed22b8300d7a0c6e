import { expect } from 'chai';
import fc from 'fast-check';
import {
  allCalendarEvents,
  eventsOfYear,
  scheduleGaps,
  upcomingEvents,
  UPCOMING_WINDOW_DAYS,
} from '../../shared/macro/calendar/calendar-events.js';
import { isNewYorkDst, newYorkToUtc, nthSunday } from '../../shared/macro/calendar/new-york-time.js';
import { expiriesOfYear, lastFriday, optionsExpiry } from '../../shared/macro/calendar/options-expiry.js';
import { CPI_RELEASES, FOMC_DECISIONS, NFP_RELEASES } from '../../shared/macro/calendar/us-release-schedule.js';

const iso = (ms: number): string => new Date(ms).toISOString();

/** New York's UTC offset in hours at an instant, from the platform's time-zone database. */
function intlOffsetHours(ms: number): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: 'America/New_York',
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
  }).formatToParts(new Date(ms));
  const get = (type: string): number => Number(parts.find((p) => p.type === type)?.value);
  const local = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'));
  return Math.round((ms - local) / 3_600_000);
}

describe('macro calendar (pure)', () => {
  describe('options expiries: last Friday of the month, 08:00 UTC', () => {
    it('finds the last Friday, computed by hand', () => {
      expect(lastFriday(2026, 1)).to.equal(30); // Jan 31 2026 is a Saturday
      expect(lastFriday(2024, 3)).to.equal(29); // Mar 31 2024 is a Sunday
      expect(lastFriday(2025, 12)).to.equal(26); // Dec 31 2025 is a Wednesday
      expect(lastFriday(2027, 4)).to.equal(30); // Apr 30 2027 is itself a Friday
      expect(lastFriday(2024, 2)).to.equal(23); // leap February: the 29th is a Thursday
    });

    it('dates the expiry at 08:00 UTC and marks March, June, September and December quarterly', () => {
      expect(optionsExpiry(2026, 3)).to.deep.equal({ ts: Date.parse('2026-03-27T08:00:00Z'), year: 2026, month: 3, quarterly: true });
      expect(optionsExpiry(2026, 4).quarterly).to.equal(false);
      expect(
        expiriesOfYear(2025)
          .filter((e) => e.quarterly)
          .map((e) => iso(e.ts)),
      ).to.deep.equal(['2025-03-28T08:00:00.000Z', '2025-06-27T08:00:00.000Z', '2025-09-26T08:00:00.000Z', '2025-12-26T08:00:00.000Z']);
    });

    it('is always a Friday in the last seven days of its month', () => {
      fc.assert(
        fc.property(fc.integer({ min: 1990, max: 2100 }), fc.integer({ min: 1, max: 12 }), (year, month) => {
          const { ts } = optionsExpiry(year, month);
          const d = new Date(ts);
          const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
          expect(d.getUTCDay()).to.equal(5);
          expect(d.getUTCMonth()).to.equal(month - 1);
          expect(daysInMonth - d.getUTCDate()).to.be.within(0, 6);
          expect(d.getUTCHours()).to.equal(8);
        }),
      );
    });
  });

  describe('New York time to UTC', () => {
    it('knows the DST boundaries: second Sunday of March, first Sunday of November', () => {
      expect(nthSunday(2026, 3, 2)).to.equal(8);
      expect(nthSunday(2026, 11, 1)).to.equal(1);
      expect(isNewYorkDst(2026, 3, 8, 1)).to.equal(false);
      expect(isNewYorkDst(2026, 3, 8, 3)).to.equal(true);
      expect(isNewYorkDst(2026, 11, 1, 0)).to.equal(true);
      expect(isNewYorkDst(2026, 11, 1, 3)).to.equal(false);
    });

    it('converts FOMC and BLS times by hand: EST is UTC-5, EDT UTC-4', () => {
      expect(iso(newYorkToUtc('2026-01-28', '14:00'))).to.equal('2026-01-28T19:00:00.000Z'); // winter
      expect(iso(newYorkToUtc('2026-03-18', '14:00'))).to.equal('2026-03-18T18:00:00.000Z'); // ten days into DST
      expect(iso(newYorkToUtc('2024-11-07', '14:00'))).to.equal('2024-11-07T19:00:00.000Z'); // the Thursday after DST ended
      expect(iso(newYorkToUtc('2026-02-13', '08:30'))).to.equal('2026-02-13T13:30:00.000Z');
      expect(iso(newYorkToUtc('2025-07-03', '08:30'))).to.equal('2025-07-03T12:30:00.000Z');
      expect(iso(newYorkToUtc('2026-03-11', '08:30'))).to.equal('2026-03-11T12:30:00.000Z'); // 3 days after the switch
    });

    it('agrees with the time-zone database on every day of 2023-2027 at 08:30 and 14:00', () => {
      fc.assert(
        fc.property(
          fc.integer({ min: Date.UTC(2023, 0, 1), max: Date.UTC(2027, 11, 31) }),
          fc.constantFrom('08:30', '14:00'),
          (ms, time) => {
            const day = new Date(ms).toISOString().slice(0, 10);
            const utc = newYorkToUtc(day, time);
            const [h, m] = time.split(':').map(Number);
            const [y, mo, d] = day.split('-').map(Number);
            expect(utc - Date.UTC(y, mo - 1, d, h, m)).to.equal(intlOffsetHours(utc) * 3_600_000);
          },
        ),
        { numRuns: 400 },
      );
    });
  });

  describe('events', () => {
    it('lists eight FOMC decisions a year, each a Tuesday-Wednesday meeting ending on a weekday at 14:00 New York', () => {
      for (let year = 2023; year <= 2027; year++)
        expect(
          FOMC_DECISIONS.filter((d) => d.startsWith(String(year))),
          String(year),
        ).to.have.length(8);
      for (const date of FOMC_DECISIONS) expect([3, 4], date).to.include(new Date(`${date}T12:00:00Z`).getUTCDay());
    });

    it('holds BLS releases on weekdays, in order, one per reference month (the cancelled October 2025 ones excepted)', () => {
      for (const list of [CPI_RELEASES, NFP_RELEASES]) {
        const dates = list.map((r) => r.date);
        expect(dates).to.deep.equal([...dates].sort());
        for (const r of list) expect([1, 2, 3, 4, 5], r.date).to.include(new Date(`${r.date}T12:00:00Z`).getUTCDay());
        const refs = list.map((r) => r.ref);
        expect(new Set(refs).size).to.equal(refs.length);
        expect(refs).to.not.include('2025-10');
      }
    });

    it('gives a year its events in UTC, oldest first, with impact 1-3', () => {
      const events = eventsOfYear(2026);
      expect(events.every((e) => e.ts >= Date.UTC(2026, 0, 1) && e.ts < Date.UTC(2027, 0, 1))).to.equal(true);
      expect(events.map((e) => e.ts)).to.deep.equal([...events.map((e) => e.ts)].sort((a, b) => a - b));
      expect(events.every((e) => [1, 2, 3].includes(e.impact) && e.iso === iso(e.ts))).to.equal(true);
      const count = (type: string): number => events.filter((e) => e.type === type).length;
      expect([count('fomc'), count('cpi'), count('nfp'), count('options_expiry')]).to.deep.equal([8, 12, 12, 12]);
      const jobs = events.find((e) => e.type === 'nfp' && e.title.includes('January 2026'));
      expect(jobs?.iso).to.equal('2026-02-11T13:30:00.000Z');
      expect(jobs?.desc).to.include('was 2026-02-06');
    });

    it('includes the crypto milestones of their year', () => {
      const halving = eventsOfYear(2024).find((e) => e.type === 'crypto' && e.title === 'Bitcoin halving');
      expect(halving?.iso).to.equal('2024-04-20T00:09:27.000Z');
      expect(halving?.impact).to.equal(3);
    });

    it('says which release series the data file does not cover yet instead of listing a year short', () => {
      expect(scheduleGaps(Date.UTC(2026, 0, 1))).to.deep.equal([]);
      expect(scheduleGaps(Date.UTC(2027, 0, 1))).to.deep.equal([]);
      const gaps = scheduleGaps(Date.UTC(2028, 0, 1));
      expect(gaps.map((g) => g.type)).to.deep.equal(['cpi', 'nfp']);
      const lastCpi = eventsOfYear(2026)
        .filter((e) => e.type === 'cpi')
        .at(-1);
      expect(gaps[0].last_listed).to.equal(lastCpi?.iso);
      expect(eventsOfYear(2027).filter((e) => e.type === 'cpi' && e.ts > Date.parse(gaps[0].last_listed))).to.have.length(0);
    });

    it('lists the next 90 days without a year', () => {
      const now = Date.parse('2026-11-22T00:00:00Z');
      const events = upcomingEvents(now);
      expect(events.length).to.be.greaterThan(0);
      expect(events.every((e) => e.ts >= now && e.ts < now + UPCOMING_WINDOW_DAYS * 86_400_000)).to.equal(true);
      expect(events.map((e) => e.iso)).to.include.members([
        '2026-12-09T19:00:00.000Z',
        '2026-12-25T08:00:00.000Z',
        '2027-01-27T19:00:00.000Z',
      ]);
      expect(allCalendarEvents().filter((e) => e.ts >= now && e.ts < now + 90 * 86_400_000)).to.deep.equal(events);
    });
  });
});
