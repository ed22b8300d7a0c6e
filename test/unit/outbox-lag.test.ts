import { expect } from 'chai';
import { outboxLagSeconds } from '../../shared/push/outbox-lag.js';

const SCAN_MS = 5_000;

describe('push: the outbox relay lag', () => {
  it('is unknown before the relays first scan', () => {
    expect(outboxLagSeconds(null, 1_000_000, SCAN_MS)).to.equal(undefined);
  });

  it('is the age the oldest entry had when a recent scan saw it', () => {
    // scanned at 1,000,000 ms, oldest head appended at 958,000: 42 s old then; scraped 4 s later, still 42
    expect(outboxLagSeconds({ at: 1_000_000, oldestMs: 958_000 }, 1_004_000, SCAN_MS)).to.equal(42);
  });

  it('is 0 when a recent scan found every outbox empty', () => {
    expect(outboxLagSeconds({ at: 1_000_000, oldestMs: null }, 1_014_000, SCAN_MS)).to.equal(0);
  });

  it('grows with the clock once no scan completed for three periods (the relays stopped)', () => {
    // the last scan, 16 s ago (over 3 x 5 s), saw nothing: 16 s have gone unwatched
    expect(outboxLagSeconds({ at: 1_000_000, oldestMs: null }, 1_016_000, SCAN_MS)).to.equal(16);
    // it saw an entry appended at 990,000: that entry counts as still waiting, 26 s
    expect(outboxLagSeconds({ at: 1_000_000, oldestMs: 990_000 }, 1_016_000, SCAN_MS)).to.equal(26);
  });
});
