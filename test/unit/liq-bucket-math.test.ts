import { expect } from 'chai';
import fc from 'fast-check';
import {
  bucketize,
  dayByteRange,
  daysOf,
  decodeDayRange,
  DAY_BYTES,
  DAY_MINUTES,
  recentBucketMinutes,
  RETENTION_MINUTES,
  slotIndex,
  type MinuteDollars,
} from '../../shared/derivatives/liquidations/bucket-math.js';

describe('liquidation minute buckets (pure)', () => {
  it('sizes buckets by window: 1, 5, 15, 60, 240 minutes, never more than 180 buckets', () => {
    expect([1, 60, 61, 360, 361, 1440, 1441, 10_080, 10_081, 43_200].map(recentBucketMinutes)).to.deep.equal([
      1, 1, 5, 5, 15, 15, 60, 60, 240, 240,
    ]);
    for (let minutes = 1; minutes <= RETENTION_MINUTES; minutes += 37)
      expect(Math.ceil(minutes / recentBucketMinutes(minutes)) + 1).to.be.at.most(181);
  });

  it('lays a day out as 1440 x [long, short] u32: 11,520 bytes, 345,600 for 30 days', () => {
    expect(DAY_BYTES).to.equal(11_520);
    expect(DAY_BYTES * 30).to.equal(345_600);
    const minute = 20_000 * DAY_MINUTES + 61;
    expect(slotIndex(minute, 'long_liquidated')).to.equal(122);
    expect(slotIndex(minute, 'short_liquidated')).to.equal(123);
    expect(daysOf(20_000 * DAY_MINUTES - 1, 20_000 * DAY_MINUTES + 1)).to.deep.equal([19_999, 20_000]);
    expect(dayByteRange(20_000, 20_000 * DAY_MINUTES - 5, 20_000 * DAY_MINUTES + 2)).to.deep.equal({ start: 0, end: 23 });
  });

  it('decodes a GETRANGE slice, a string cut short included, big-endian like BITFIELD', () => {
    const day = 3;
    const first = day * DAY_MINUTES + 10;
    const bytes = Buffer.alloc(20);
    bytes.writeUInt32BE(7, 0); // minute 10 long
    bytes.writeUInt32BE(9, 12); // minute 11 short
    bytes.writeUInt32BE(4_000_000_000, 16); // minute 12 long; its short slot was never written
    const seen: [number, MinuteDollars][] = [];
    decodeDayRange(bytes, day, first, first + 5, (m, v) => seen.push([m - first, v]));
    expect(seen).to.deep.equal([
      [0, { long: 7, short: 0 }],
      [1, { long: 0, short: 9 }],
      [2, { long: 4_000_000_000, short: 0 }],
    ]);
  });

  it('bucketize keeps every dollar of the window and only those, buckets aligned to UTC multiples', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 3000 }),
        fc.array(fc.tuple(fc.integer({ min: -50, max: 3050 }), fc.nat(1000), fc.nat(1000)), { maxLength: 60 }),
        (windowMinutes, points) => {
          const to = 1_000_000;
          const from = to - windowMinutes + 1;
          const minutes = new Map<number, MinuteDollars>();
          for (const [offset, long, short] of points) minutes.set(to - offset, { long, short });
          const size = recentBucketMinutes(windowMinutes);
          const buckets = bucketize(minutes, from, to, size);
          const inWindow = [...minutes].filter(([m]) => m >= from && m <= to);
          expect(buckets.reduce((s, b) => s + b.long_usd, 0)).to.equal(inWindow.reduce((s, [, v]) => s + v.long, 0));
          expect(buckets.reduce((s, b) => s + b.short_usd, 0)).to.equal(inWindow.reduce((s, [, v]) => s + v.short, 0));
          for (const b of buckets) expect((b.ts / 60_000) % size).to.equal(0);
          expect(buckets[0].ts).to.be.at.most(from * 60_000);
          expect(buckets[buckets.length - 1].ts).to.be.at.most(to * 60_000);
        },
      ),
    );
  });
});
