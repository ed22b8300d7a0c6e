import { expect } from 'chai';
import fc from 'fast-check';
import type { Candle } from '../../shared/market/types.js';
import {
  barsAt,
  dayBounds,
  DAY_MS,
  dueAt,
  MINUTE_MS,
  minutesDue,
  priceAt,
  progressPct,
  scheduledCursor,
  summaryNumbers,
  visibleCursor,
  type ReplayClockState,
} from '../../shared/paper/replay/replay-math.js';

const S = Date.UTC(2026, 2, 10);

/** A day of candles: minute i opens at 100 + i, its high is 100 + i + 0.5, its low 100 + i - 0.5, it closes at 101 + i. */
const day: Candle[] = Array.from({ length: 1440 }, (_, i) => ({
  openTime: S + i * MINUTE_MS,
  open: 100 + i,
  high: 100.5 + i,
  low: 99.5 + i,
  close: 101 + i,
  volume: 1,
  closed: true,
}));

describe('replay math', () => {
  it('knows a real UTC day from anything else', () => {
    expect(dayBounds('2026-03-10')).to.deep.equal({ startTs: S, endTs: S + DAY_MS });
    expect(dayBounds('2024-02-29')?.startTs).to.equal(Date.UTC(2024, 1, 29));
    for (const bad of ['2026-02-30', '2025-02-29', '2026-13-01', '2026-3-10', '20260310', ' 2026-03-10', '2026-03-10T00:00:00Z', '']) {
      expect(dayBounds(bad), bad).to.equal(null);
    }
    fc.assert(
      fc.property(fc.string(), (text) => {
        const bounds = dayBounds(text);
        if (bounds) expect(new Date(bounds.startTs).toISOString().slice(0, 10)).to.equal(text);
      }),
    );
  });

  it('runs the schedule at speed x real time, from the start, capped at the end of the day', () => {
    const clock = { startTs: S, endTs: S + DAY_MS, speed: 600, startedAt: 1_000 };
    // 144 s of real time at 600x is the whole day: 144000 x 600 = 86.4 M ms
    expect(scheduledCursor(clock, 1_000 + 144_000)).to.equal(S + DAY_MS);
    expect(scheduledCursor(clock, 1_000 + 100)).to.equal(S + 60_000);
    expect(scheduledCursor(clock, 0)).to.equal(S);
    expect(dueAt(clock, S + 60_000)).to.equal(1_100);
  });

  it('never shows a cursor past the schedule, nor past the first minute not swept; sweeps each due minute once, in order', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 600 }),
        fc.integer({ min: 0, max: 1440 }),
        fc.integer({ min: 0, max: 200_000_000 }),
        (speed, swept, elapsed) => {
          const s: ReplayClockState = { startTs: S, endTs: S + DAY_MS, speed, startedAt: 5_000, sweptTo: S + swept * MINUTE_MS };
          const now = 5_000 + elapsed;
          const cursor = visibleCursor(s, now);
          expect(cursor).to.be.at.least(S);
          if (swept < 1440) {
            expect(cursor).to.be.at.most(scheduledCursor(s, now));
            expect(cursor).to.be.below(s.sweptTo + MINUTE_MS);
          } else expect(cursor).to.equal(S + DAY_MS);
          const due = minutesDue(s, now);
          due.forEach((minute, i) => expect(minute).to.equal(s.sweptTo + i * MINUTE_MS));
          if (due.length > 0) expect(due[due.length - 1] + MINUTE_MS).to.be.at.most(scheduledCursor(s, now));
          // and the minute after the last due one is not due yet
          expect(s.sweptTo + (due.length + 1) * MINUTE_MS).to.be.above(scheduledCursor(s, now));
        },
      ),
    );
  });

  it('prices and draws only the minutes ended at the cursor', () => {
    // before the first minute ends: the first open, no bar
    expect(priceAt(day, S)).to.equal(100);
    expect(barsAt(day, S + 59_999, 1, 500)).to.deep.equal([]);
    // at 00:02:30 minutes 0 and 1 have ended: price 102 (minute 1's close); the 5-minute bar holds those two only
    expect(priceAt(day, S + 150_000)).to.equal(102);
    expect(barsAt(day, S + 150_000, 5, 10)).to.deep.equal([{ time: S / 1000, open: 100, high: 101.5, low: 99.5, close: 102 }]);
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: DAY_MS }),
        fc.constantFrom(1, 5, 15, 60, 240),
        fc.integer({ min: 1, max: 500 }),
        (offset, interval, bars) => {
          const cursor = S + offset;
          const drawn = barsAt(day, cursor, interval, bars);
          expect(drawn.length).to.be.at.most(bars);
          const ended = Math.floor(offset / MINUTE_MS);
          // the highest high drawn is the last ended minute's: nothing later leaks
          if (ended > 0) expect(Math.max(...drawn.map((b) => b.high))).to.equal(100.5 + ended - 1);
          else expect(drawn).to.deep.equal([]);
          for (const bar of drawn) expect(bar.time * 1000).to.be.below(cursor);
        },
      ),
    );
  });

  it('summarises a journal', () => {
    // 4 closes, 3 wins, 125.50 realized on 10000: 75 % won, 1.255 % -> 1.26 %
    expect(
      summaryNumbers({ closed: 4, wins: 3, losses: 1, liquidations: 1, realizedCents: 12_550, startingBalance: 10_000 }),
    ).to.deep.equal({
      closes: 4,
      wins: 3,
      losses: 1,
      win_rate_pct: 75,
      pnl_usd: 125.5,
      return_pct: 1.26,
      liquidations: 1,
    });
    expect(
      summaryNumbers({ closed: 0, wins: 0, losses: 0, liquidations: 0, realizedCents: 0, startingBalance: 10_000 }).win_rate_pct,
    ).to.equal(0);
    expect(progressPct(S, S + DAY_MS, S + DAY_MS / 4)).to.equal(25);
  });
});
