import { expect } from 'chai';
import {
  componentsUp,
  dayAvailability,
  deriveNow,
  FEED_STALE_MS,
  REPORT_STALE_MS,
  lastDays,
  missedSamples,
  SCHEDULER_LATE_MS,
  type StatusReading,
} from '../../shared/status/status-rules.js';

const NOW = Date.UTC(2026, 10, 26, 12, 0, 0);

/** Everything up: two venues heard 1 s ago, one liquidation stream held, the scheduler due in 1 s. */
function reading(overrides: Partial<StatusReading> = {}): StatusReading {
  return {
    now: NOW,
    redisRttMs: 1,
    feeds: { binance: { holder: 'pod-a', lastMessage: NOW - 1_000 }, bybit: { holder: 'pod-b', lastMessage: NOW - 1_000 } },
    liquidations: { okx: { holder: 'pod-a', report: { owner: 'pod-a', open: 1, sockets: 1, ts: NOW - 2_000 } } },
    failed: { sweep: 2, webhooks: 3 },
    schedulerNext: NOW + 1_000,
    ...overrides,
  };
}

describe('status rules', () => {
  it('reads everything up when leases are held, prices are recent and the scheduler is on time', () => {
    const now = deriveNow(reading());
    expect(now.state).to.equal('up');
    expect(now.feeds.binance).to.deep.equal({ state: 'up', holder: 'pod-a', message_age_ms: 1_000 });
    expect(now.queues).to.deep.equal({ state: 'up', failed: { sweep: 2, webhooks: 3 }, failed_total: 5 });
    expect(now).to.include({ cron: 'up', collector: 'up' });
    expect(componentsUp(now)).to.deep.equal({
      redis: true,
      'feed:binance': true,
      'feed:bybit': true,
      'liq:okx': true,
      queues: true,
      scheduler: true,
    });
  });

  it('downs a feed whose last price is older than the threshold, and not one at the threshold', () => {
    const at = deriveNow(reading({ feeds: { binance: { holder: 'pod-a', lastMessage: NOW - FEED_STALE_MS } } }));
    expect(at.feeds.binance.state).to.equal('up');
    const past = deriveNow(
      reading({
        feeds: { binance: { holder: 'pod-a', lastMessage: NOW - FEED_STALE_MS - 1 }, bybit: { holder: 'pod-b', lastMessage: NOW } },
      }),
    );
    expect(past.feeds.binance).to.include({ state: 'down', holder: 'pod-a' });
    expect(past.feeds.binance.reason).to.match(/no message for 15 s/);
    expect(past).to.include({ state: 'degraded', collector: 'degraded' });
    expect(componentsUp(past)['feed:binance']).to.equal(false);
  });

  it('takes the threshold it is given (STATUS_FEED_STALE_MS)', () => {
    const feeds = { binance: { holder: 'pod-a', lastMessage: NOW - 3_001 } };
    expect(deriveNow(reading({ feeds }), 3_000).feeds.binance).to.include({ state: 'down', reason: 'no message for 3 s' });
    expect(deriveNow(reading({ feeds }), 3_001).feeds.binance.state).to.equal('up');
    expect(deriveNow(reading({ feeds })).feeds.binance.state, 'the default: 15 s').to.equal('up');
  });

  it('downs a feed nobody holds or that never sent, and the whole service when every feed is down', () => {
    const now = deriveNow(
      reading({ feeds: { binance: { holder: null, lastMessage: NOW }, bybit: { holder: 'pod-b', lastMessage: null } } }),
    );
    expect(now.feeds.binance).to.include({ state: 'down', reason: 'no feed process holds its lease' });
    expect(now.feeds.bybit).to.include({ state: 'down', message_age_ms: null, reason: 'no message received yet' });
    expect(now).to.include({ state: 'down', collector: 'down' });
  });

  it('downs a liquidation stream without a lease holder, a recent report from that holder, or an open socket', () => {
    const held = { owner: 'pod-a', open: 1, sockets: 1, ts: NOW - REPORT_STALE_MS };
    expect(deriveNow(reading()).liquidations.okx).to.deep.equal({ state: 'up', holder: 'pod-a', open: 1 });
    const cases: [StatusReading['liquidations']['okx'], string][] = [
      [{ holder: null, report: held }, 'no feed process holds its lease'],
      [{ holder: 'pod-a', report: null }, 'no recent connection report from its holder'],
      [{ holder: 'pod-a', report: { ...held, ts: NOW - REPORT_STALE_MS - 1 } }, 'no recent connection report from its holder'],
      [{ holder: 'pod-b', report: held }, 'no recent connection report from its holder'],
      [{ holder: 'pod-a', report: { ...held, open: 0 } }, 'no open connection'],
    ];
    for (const [okx, reason] of cases) {
      const now = deriveNow(reading({ liquidations: { okx } }));
      expect(now.liquidations.okx, reason).to.include({ state: 'down', reason });
      expect(now.state).to.equal('degraded');
    }
  });

  it('downs the scheduler when its next run is missing or late past the threshold', () => {
    expect(deriveNow(reading({ schedulerNext: null })).scheduler).to.include({ state: 'down', late_ms: null });
    expect(deriveNow(reading({ schedulerNext: NOW - SCHEDULER_LATE_MS })).scheduler.state).to.equal('up');
    const late = deriveNow(reading({ schedulerNext: NOW - SCHEDULER_LATE_MS - 1 }));
    expect(late.scheduler).to.include({ state: 'down', late_ms: SCHEDULER_LATE_MS + 1 });
    expect(late.cron).to.equal('down');
  });

  it('reads the service down when Redis does not answer', () => {
    const now = deriveNow(reading({ redisRttMs: null }));
    expect(now.redis.state).to.equal('down');
    expect(now.state).to.equal('down');
  });

  it('lists the last 90 UTC days oldest first, ending today', () => {
    const days = lastDays(NOW);
    expect(days).to.have.length(90);
    expect(days[89]).to.equal('2026-11-26');
    expect(days[0]).to.equal('2026-08-29');
    expect(lastDays(Date.UTC(2026, 0, 1, 0, 0, 0), 2)).to.deep.equal(['2025-12-31', '2026-01-01']);
  });

  it('turns a day of counters into percentages, and a day without samples into none', () => {
    const day = dayAvailability('2026-11-26', {
      'redis:n': '4',
      'redis:up': '4',
      'feed:binance:n': '4',
      'feed:binance:up': '3',
      'queues:n': '3',
    });
    expect(day).to.deep.equal({ day: '2026-11-26', samples: 4, availability: { redis: 100, 'feed:binance': 75, queues: 0 } });
    expect(dayAvailability('2026-11-25', {})).to.deep.equal({ day: '2026-11-25', samples: 0, availability: {} });
    expect(dayAvailability('d', { 'x:n': '3', 'x:up': '1' }).availability.x).to.equal(33.33);
  });
});

describe('status rules: samples missed between two samples', () => {
  const period = 15_000;
  it('counts none for a gap within two periods, and one per period past that, split by UTC day', () => {
    const midnight = Date.UTC(2026, 5, 2);
    expect(missedSamples(midnight - 60_000, midnight - 60_000 + 2 * period, period)).to.deep.equal([]);
    // 4 min from 23:58 to 00:02: samples due at 23:58:15 .. 00:01:45, 15 in all, 7 before midnight
    expect(missedSamples(midnight - 120_000, midnight + 120_000, period)).to.deep.equal([
      { day: '2026-06-01', count: 7 },
      { day: '2026-06-02', count: 8 },
    ]);
  });
});
