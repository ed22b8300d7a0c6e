/** The status page: `now` derived live from what the store reads, `days` from the sampler's counters. */
import type { Clock } from '../core/clock.js';
import type { StatusStore } from './status-store.js';
import {
  componentsUp,
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

export class StatusService {
  constructor(
    private readonly store: StatusStore,
    private readonly clock: Clock,
  ) {}

  now(): Promise<StatusNow> {
    return this.store.read(() => this.clock.now()).then(deriveNow);
  }

  /** The whole answer of GET /api/status. */
  async view(): Promise<StatusView> {
    const days = lastDays(this.clock.now());
    const [now, counters] = await Promise.all([this.now(), this.store.readDays(days)]);
    return { ok: true, now, days: days.map((day, i) => dayAvailability(day, counters[i] ?? {})) };
  }

  /** One sample of every component, counted in today's availability (the sampler job). */
  async sample(): Promise<Record<string, boolean>> {
    const now = await this.now();
    const up = componentsUp(now);
    await this.store.recordSample(utcDay(now.ts), up, STATUS_DAY_TTL_MS);
    return up;
  }
}
