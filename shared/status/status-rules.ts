/**
 * The status page's rules, without I/O: when each component counts as up (thresholds on what the
 * store read), the answer's `now`, and the per-day availability of `days`. The store reads and
 * writes Redis (status-store.ts); the service joins the two (status-service.ts).
 */

/**
 * By default, a feed connector whose last price is older than this is down (the stream's silence is 30 s; a live venue
 * sends every second); STATUS_FEED_STALE_MS sets it.
 */
export const FEED_STALE_MS = 15_000;
/** A job scheduler whose next run is this far in the past has no worker taking its jobs. */
export const SCHEDULER_LATE_MS = 10_000;
/** The scheduler whose next run tells whether the worker role runs: the live sweep's, every 2 s. */
export const WATCHED_SCHEDULER = 'sweep-quick';
/** A connection report older than this is from a process that stopped reporting (the feed writes one every 5 s). */
export const REPORT_STALE_MS = 15_000;
/** Days kept and shown. */
export const STATUS_DAYS = 90;
/** Day counters live a little longer than they are shown. */
export const STATUS_DAY_TTL_MS = 95 * 86_400_000;

export type ComponentState = 'up' | 'down';
export type OverallState = 'up' | 'degraded' | 'down';

/** What the process holding a connector's lease last said of its sockets. */
export interface ConnectionReport {
  owner: string;
  open: number;
  sockets: number;
  ts: number;
}

/** What the store read in one round trip, as of `now`. */
export interface StatusReading {
  now: number;
  /** Round trip of a PING, ms; null when it failed. */
  redisRttMs: number | null;
  /** Per feed venue: the lease holder (null: no feed process runs it) and the ms of its last price (null: none yet). */
  feeds: Record<string, { holder: string | null; lastMessage: number | null }>;
  /** Per liquidation exchange: the lease holder and the last connection report of its stream (null: none). */
  liquidations: Record<string, { holder: string | null; report: ConnectionReport | null }>;
  /** Failed jobs kept per queue. */
  failed: Record<string, number>;
  /** When the watched scheduler's next job is due (ms); null when it does not exist. */
  schedulerNext: number | null;
}

export interface FeedStatus {
  state: ComponentState;
  holder: string | null;
  message_age_ms: number | null;
  reason?: string;
}

export interface LiquidationStatus {
  state: ComponentState;
  holder: string | null;
  /** Open sockets of its stream, as its holder last reported (null: no recent report from the holder). */
  open: number | null;
  reason?: string;
}

export interface StatusNow {
  ts: number;
  /** up: everything up; down: Redis or every feed connector down; degraded: anything between. */
  state: OverallState;
  redis: { state: ComponentState; rtt_ms: number | null };
  feeds: Record<string, FeedStatus>;
  liquidations: Record<string, LiquidationStatus>;
  queues: { state: ComponentState; failed: Record<string, number>; failed_total: number };
  scheduler: { state: ComponentState; id: string; next_ts: number | null; late_ms: number | null; reason?: string };
  /** The original's two names: the scheduler's state, and the price feed's as a whole. */
  cron: ComponentState;
  collector: OverallState;
}

/** One UTC day: per component, the percentage of samples it was up (two decimals); samples is the day's sample count. */
export interface StatusDay {
  day: string;
  samples: number;
  availability: Record<string, number>;
}

export function feedStatus(holder: string | null, lastMessage: number | null, now: number, staleMs = FEED_STALE_MS): FeedStatus {
  const age = lastMessage === null ? null : Math.max(0, now - lastMessage);
  if (holder === null) return { state: 'down', holder, message_age_ms: age, reason: 'no feed process holds its lease' };
  if (age === null) return { state: 'down', holder, message_age_ms: age, reason: 'no message received yet' };
  if (age > staleMs) return { state: 'down', holder, message_age_ms: age, reason: `no message for ${Math.round(age / 1000)} s` };
  return { state: 'up', holder, message_age_ms: age };
}

export function liquidationStatus(holder: string | null, report: ConnectionReport | null, now: number): LiquidationStatus {
  const current = report && report.owner === holder && now - report.ts <= REPORT_STALE_MS ? report : null;
  const open = current?.open ?? null;
  if (holder === null) return { state: 'down', holder, open, reason: 'no feed process holds its lease' };
  if (open === null) return { state: 'down', holder, open, reason: 'no recent connection report from its holder' };
  if (open === 0) return { state: 'down', holder, open, reason: 'no open connection' };
  return { state: 'up', holder, open };
}

export function schedulerStatus(next: number | null, now: number): StatusNow['scheduler'] {
  const base = { id: WATCHED_SCHEDULER, next_ts: next };
  if (next === null) return { ...base, state: 'down', late_ms: null, reason: 'the job scheduler is not registered' };
  const late = Math.max(0, now - next);
  if (late > SCHEDULER_LATE_MS) return { ...base, state: 'down', late_ms: late, reason: 'no worker takes its jobs' };
  return { ...base, state: 'up', late_ms: late };
}

function overall(states: readonly ComponentState[]): OverallState {
  const up = states.filter((s) => s === 'up').length;
  if (up === states.length) return 'up';
  return up === 0 ? 'down' : 'degraded';
}

/** The answer's `now` from a reading; a feed silent for longer than `feedStaleMs` is down. */
export function deriveNow(r: StatusReading, feedStaleMs = FEED_STALE_MS): StatusNow {
  const feeds = Object.fromEntries(
    Object.entries(r.feeds).map(([venue, f]) => [venue, feedStatus(f.holder, f.lastMessage, r.now, feedStaleMs)]),
  );
  const liquidations = Object.fromEntries(
    Object.entries(r.liquidations).map(([exchange, l]) => [exchange, liquidationStatus(l.holder, l.report, r.now)]),
  );
  const redis = { state: r.redisRttMs === null ? ('down' as const) : ('up' as const), rtt_ms: r.redisRttMs };
  const failedTotal = Object.values(r.failed).reduce((sum, n) => sum + n, 0);
  const queues = { state: redis.state, failed: r.failed, failed_total: failedTotal };
  const scheduler = schedulerStatus(r.schedulerNext, r.now);
  const collector = overall(Object.values(feeds).map((f) => f.state));
  const all = [redis.state, queues.state, scheduler.state, ...Object.values(feeds).map((f) => f.state)];
  const allLiq = Object.values(liquidations).map((l) => l.state);
  const state: OverallState = redis.state === 'down' || collector === 'down' ? 'down' : overall([...all, ...allLiq]);
  return { ts: r.now, state, redis, feeds, liquidations, queues, scheduler, cron: scheduler.state, collector };
}

/** Every component by its id in `days` (redis, feed:<venue>, liq:<exchange>, queues, scheduler): up or not. */
export function componentsUp(now: StatusNow): Record<string, boolean> {
  const out: Record<string, boolean> = { redis: now.redis.state === 'up' };
  for (const [venue, f] of Object.entries(now.feeds)) out[`feed:${venue}`] = f.state === 'up';
  for (const [exchange, l] of Object.entries(now.liquidations)) out[`liq:${exchange}`] = l.state === 'up';
  out.queues = now.queues.state === 'up';
  out.scheduler = now.scheduler.state === 'up';
  return out;
}

/** The UTC day of a timestamp, YYYY-MM-DD. */
export function utcDay(ts: number): string {
  return new Date(ts).toISOString().slice(0, 10);
}

/** The last `count` UTC days up to the one of `now`, oldest first. */
export function lastDays(now: number, count = STATUS_DAYS): string[] {
  const today = Math.floor(now / 86_400_000);
  return Array.from({ length: count }, (_, i) => utcDay((today - count + 1 + i) * 86_400_000));
}

/** A day's counters (fields <component>:up and <component>:n) as availability percentages. */
export function dayAvailability(day: string, counters: Record<string, string>): StatusDay {
  const availability: Record<string, number> = {};
  let samples = 0;
  for (const [field, value] of Object.entries(counters)) {
    if (!field.endsWith(':n')) continue;
    const component = field.slice(0, -2);
    const total = Number(value);
    if (!(total > 0)) continue;
    const up = Math.min(total, Number(counters[`${component}:up`] ?? 0) || 0);
    availability[component] = Math.round((up / total) * 10_000) / 100;
    samples = Math.max(samples, total);
  }
  return { day, samples, availability };
}

/** A sample later than this many periods after the one before means samples were missed (a late job is not a miss). */
const MISSED_AFTER_PERIODS = 2;

/**
 * The samples nobody took between the last one (`last`) and this one (`now`), by UTC day: none when the gap is within
 * two periods, else one per period after `last` up to (not including) `now`. The sampler is a worker's job on Redis, so a
 * gap is a time when no worker ran or Redis was unreachable: the page counts those samples as that component down.
 */
export function missedSamples(last: number, now: number, periodMs: number): { day: string; count: number }[] {
  if (!(periodMs > 0) || now - last <= MISSED_AFTER_PERIODS * periodMs) return [];
  const byDay = new Map<string, number>();
  for (let at = last + periodMs; at < now - periodMs / 2; at += periodMs) {
    const day = utcDay(at);
    byDay.set(day, (byDay.get(day) ?? 0) + 1);
  }
  return [...byDay].map(([day, count]) => ({ day, count }));
}
