/** The status page: `now` derived live from what the store reads, `days` from the sampler's counters. */
import type { Clock } from '../core/clock.js';
import type { StatusStore } from './status-store.js';
import {
  componentsUp,
  missedSamples,
  dayAvailability,
  deriveNow,
  lastDays,
  STATUS_DAY_TTL_MS,
  utcDay,
  type StatusDay,
  type StatusNow,
} from './status-rules.js';

export interface StatusView {
  ok: true;
  now: StatusNow;
  days: StatusDay[];
}

/** Whether this process saw Redis unreachable at some time between two instants (shared/redis/connection.ts). */
export interface OutageMemory {
  downBetween(from: number, to: number): boolean;
}

export class StatusService {
  constructor(
    private readonly store: StatusStore,
    private readonly clock: Clock,
    /** The sampler's period (STATUS_SAMPLE_MS): a longer gap between samples is an outage. */
    private readonly sampleMs: number,
    private readonly outages: OutageMemory,
    /** How long a feed may be silent before it reads down (STATUS_FEED_STALE_MS). */
    private readonly feedStaleMs: number,
  ) {}

  now(): Promise<StatusNow> {
    return this.store.read(() => this.clock.now()).then((reading) => deriveNow(reading, this.feedStaleMs));
  }

  /** The whole answer of GET /api/status. */
  async view(): Promise<StatusView> {
    const days = lastDays(this.clock.now());
    const [now, counters] = await Promise.all([this.now(), this.store.readDays(days)]);
    return { ok: true, now, days: days.map((day, i) => dayAvailability(day, counters[i] ?? {})) };
  }

  /**
   * One sample of every component, counted in today's availability (the sampler job). The samples missed since the
   * last one count as down: Redis (and the queues on it) when this process saw Redis unreachable meanwhile, else the
   * workers (`scheduler`), since no worker took the sampler's job.
   */
  async sample(): Promise<Record<string, boolean>> {
    const now = await this.now();
    const up = componentsUp(now);
    const last = await this.store.swapLastSample(now.ts);
    if (last !== null) {
      const down = this.outages.downBetween(last, now.ts) ? ['redis', 'queues'] : ['scheduler'];
      for (const { day, count } of missedSamples(last, now.ts, this.sampleMs))
        await this.store.recordDown(day, down, count, STATUS_DAY_TTL_MS);
    }
    await this.store.recordSample(utcDay(now.ts), up, STATUS_DAY_TTL_MS);
    return up;
  }
}
