/**
 * The status page's Redis side: one pipeline reads what the components left behind (lease holders,
 * each venue's last message, the failed jobs per queue, the watched scheduler's next run), and the
 * sampler counts each day's samples per component.
 */
import type { RedisClient } from '../core/redis-client.js';
import { keys } from '../redis/keys.js';
import type { ConnectionReport, StatusReading } from './status-rules.js';
import { anySlotPipeline } from '../redis/pipeline.js';

export interface StatusSubjects {
  feedVenues: readonly string[];
  liqVenues: readonly string[];
  queues: readonly string[];
  scheduler: { queue: string; id: string };
}

const numberOrNull = (value: unknown): number | null => {
  const n = typeof value === 'string' ? Number(value) : NaN;
  return Number.isFinite(n) ? n : null;
};

function parseReport(text: string | undefined): ConnectionReport | null {
  if (text === undefined) return null;
  try {
    const value = JSON.parse(text) as Partial<ConnectionReport>;
    const { owner, open, sockets, ts } = value;
    return typeof owner === 'string' && typeof open === 'number' && typeof sockets === 'number' && typeof ts === 'number'
      ? { owner, open, sockets, ts }
      : null;
  } catch {
    return null;
  }
}

export class StatusStore {
  constructor(
    private readonly redis: RedisClient,
    private readonly subjects: StatusSubjects,
  ) {}

  /** Everything `now` is derived from; Redis unreachable reads as nothing known (every component down). */
  async read(now: () => number): Promise<StatusReading> {
    const { feedVenues, liqVenues, queues, scheduler } = this.subjects;
    const pipe = anySlotPipeline(this.redis);
    for (const venue of feedVenues) pipe.get(keys.feedLease(venue));
    for (const exchange of liqVenues) pipe.get(keys.feedLease(`liq-${exchange}`));
    pipe.hgetall(keys.feedLastMessage());
    pipe.hgetall(keys.feedConnections());
    for (const queue of queues) pipe.zcard(keys.bullQueue(queue, 'failed'));
    pipe.zscore(keys.bullQueue(scheduler.queue, 'repeat'), scheduler.id);
    const started = now();
    let replies: [Error | null, unknown][] = [];
    let rtt: number | null = null;
    try {
      const [pong, piped] = await Promise.all([this.redis.ping().then(() => now() - started), pipe.exec()]);
      rtt = pong;
      replies = piped ?? [];
    } catch {
      replies = [];
    }
    let i = 0;
    const next = (): unknown => {
      const [error, value] = replies[i++] ?? [null, null];
      return error ? null : value;
    };
    const holder = (): string | null => {
      const value = next();
      return typeof value === 'string' ? value : null;
    };
    const feedHolders = feedVenues.map(holder);
    const liqHolders = liqVenues.map(holder);
    const last = (next() ?? {}) as Record<string, string>;
    const reports = (next() ?? {}) as Record<string, string>;
    const liquidations = Object.fromEntries(
      liqVenues.map((exchange, j) => [exchange, { holder: liqHolders[j] ?? null, report: parseReport(reports[`liq-${exchange}`]) }]),
    );
    const feeds = Object.fromEntries(
      feedVenues.map((venue, j) => [venue, { holder: feedHolders[j] ?? null, lastMessage: numberOrNull(last[venue]) }]),
    );
    const failed = Object.fromEntries(queues.map((queue) => [queue, Number(next() ?? 0) || 0]));
    const schedulerNext = numberOrNull(next());
    return { now: now(), redisRttMs: rtt, feeds, liquidations, failed, schedulerNext };
  }

  /** Adds one sample to the day's counters: every component's total, and its up count when up. */
  async recordSample(day: string, up: Record<string, boolean>, ttlMs: number): Promise<void> {
    const key = keys.statusDay(day);
    const pipe = this.redis.pipeline();
    for (const [component, isUp] of Object.entries(up)) {
      pipe.hincrby(key, `${component}:n`, 1);
      if (isUp) pipe.hincrby(key, `${component}:up`, 1);
    }
    pipe.pexpire(key, ttlMs);
    await pipe.exec();
  }

  /** Stores the time of this sample and answers the one before (null: the first ever), in one command. */
  async swapLastSample(ts: number): Promise<number | null> {
    const before = await this.redis.set(keys.statusLastSample(), String(ts), 'GET');
    return numberOrNull(before ?? undefined);
  }

  /** Counts `count` samples of a day as taken with each of `components` down. */
  async recordDown(day: string, components: readonly string[], count: number, ttlMs: number): Promise<void> {
    const key = keys.statusDay(day);
    const pipe = this.redis.pipeline();
    for (const component of components) pipe.hincrby(key, `${component}:n`, count);
    pipe.pexpire(key, ttlMs);
    await pipe.exec();
  }

  /** Each day's counters, in the order asked ({} for a day without samples). */
  async readDays(days: readonly string[]): Promise<Record<string, string>[]> {
    const pipe = this.redis.pipeline();
    for (const day of days) pipe.hgetall(keys.statusDay(day));
    const replies = (await pipe.exec()) ?? [];
    return days.map((_, i) => {
      const [error, value] = replies[i] ?? [null, null];
      return !error && value && typeof value === 'object' ? (value as Record<string, string>) : {};
    });
  }
}
