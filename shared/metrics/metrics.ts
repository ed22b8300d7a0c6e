/**
 * The process's Prometheus metrics: one registry, every definition in this file. Labels take only
 * values from fixed sets (route templates of the catalog, status classes, queue names, venues,
 * plans, scopes, outcomes): never a raw URL, a symbol or an id. What needs a read from Redis (queue
 * counts, the ping) is read when the registry is scraped, through the sources a role registers
 * (setScrapeSources), never per request.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Config } from '../config.js';

/**
 * Whether this process's metrics can be read: /metrics on an API pod needs METRICS_TOKEN, the listener METRICS_PORT.
 * Without either, the request path records nothing and no scrape source is registered.
 */
export const metricsReadable = (config: Config): boolean => config.metricsToken !== undefined || config.metricsPort !== undefined;

export const metricsRegistry = new Registry();

let defaultsStarted = false;
/** prom-client's process metrics (CPU, memory, heap, event-loop lag, GC), once per process: only where metrics are read. */
export function startDefaultMetrics(): void {
  if (defaultsStarted) return;
  defaultsStarted = true;
  collectDefaultMetrics({ register: metricsRegistry });
}

const registers = [metricsRegistry];
/** Request and job durations, seconds: from a cached read (~1 ms) to a slow receiver or REST call. */
const SECONDS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** The job states an operator watches per queue. */
export const QUEUE_STATES = ['waiting', 'active', 'delayed', 'failed'] as const;
export type QueueState = (typeof QUEUE_STATES)[number];
export type QueueCounts = Record<string, Record<QueueState, number>>;

/** What the scrape-time gauges read; a role that has them registers them, and clears them when it stops. */
export interface ScrapeSources {
  /** Job counts per queue (cached by the source: scrapes of many pods must not flood Redis). */
  queueCounts?(): Promise<QueueCounts>;
  /** One PING's round trip, seconds. */
  redisPing?(): Promise<number>;
  /** Age of the oldest unrelayed outbox entry, seconds (undefined before the relays' first scan). */
  outboxLag?(): Promise<number | undefined>;
}

const sources: ScrapeSources[] = [];

/** Registers what this role can read at scrape time; the first registered of each kind answers. Returns the unregister. */
export function addScrapeSources(added: ScrapeSources): () => void {
  sources.push(added);
  return () => {
    const at = sources.indexOf(added);
    if (at >= 0) sources.splice(at, 1);
  };
}

const counter = <L extends string>(name: string, help: string, labelNames: readonly L[] = []): Counter<L> =>
  new Counter({ name, help, labelNames, registers });
const histogram = <L extends string>(name: string, help: string, buckets: number[], labelNames: readonly L[] = []): Histogram<L> =>
  new Histogram({ name, help, buckets, labelNames, registers });
const gauge = (name: string, help: string): Gauge => new Gauge({ name, help, registers });
/** A gauge whose values `read` sets each time the registry is scraped (the values of the scrape before are dropped). */
function scrapedGauge<L extends string>(
  name: string,
  help: string,
  labelNames: readonly L[],
  read: (set: (value: number, labels?: Partial<Record<L, string>>) => void) => void | Promise<void>,
): Gauge<L> {
  return new Gauge({
    name,
    help,
    labelNames,
    registers,
    async collect() {
      this.reset();
      await read((value, labels) => (labels ? this.set(labels, value) : this.set(value)));
    },
  });
}

const firstSource = <K extends keyof ScrapeSources>(name: K): ScrapeSources[K] => sources.find((s) => s[name])?.[name];

export const httpRequestDuration = histogram(
  'perpdesk_http_request_duration_seconds',
  'HTTP requests by method, route template (unmatched for unknown paths) and status class, seconds until the response finished',
  SECONDS,
  ['method', 'route', 'status_class'],
);

export const rateLimitRejections = counter(
  'perpdesk_rate_limit_rejections_total',
  'Requests and stream upgrades answered 429, by budget scope (ip, key, bad_key, account)',
  ['scope'],
);

export const keyedRequests = counter(
  'perpdesk_keyed_requests_total',
  'Requests to keyed routes with a valid API key, by the key account plan',
  ['plan'],
);

export const redisRefusals = counter(
  'perpdesk_redis_refusals_total',
  'Requests answered 503 because Redis refused or did not answer a command: oom (maxmemory reached), timeout (REDIS_COMMAND_TIMEOUT_MS)',
  ['reason'],
);

export const evictionPolicy = gauge(
  'perpdesk_redis_eviction_policy_ok',
  'Whether every Redis master reported maxmemory-policy noeviction at start (1), or did not say (0: INFO memory hidden)',
);

export const queueJobs = scrapedGauge(
  'perpdesk_queue_jobs',
  'BullMQ jobs per queue and state (waiting, active, delayed, failed), read at scrape time and cached a few seconds',
  ['queue', 'state'],
  async (set) => {
    const counts = await firstSource('queueCounts')?.().catch(() => undefined);
    for (const [queue, byState] of Object.entries(counts ?? {})) for (const state of QUEUE_STATES) set(byState[state], { queue, state });
  },
);

export const jobDuration = histogram(
  'perpdesk_job_duration_seconds',
  'BullMQ jobs processed by this worker, by queue and outcome (completed, failed), seconds',
  SECONDS,
  ['queue', 'outcome'],
);

export const minuteSweepDuration = histogram(
  'perpdesk_minute_sweep_duration_seconds',
  'One closed candle swept (resting orders, then positions), seconds',
  SECONDS,
);

export const sweepSettlements = counter(
  'perpdesk_sweep_settlements_total',
  'Positions the sweep closed (stops, targets, liquidations), by trigger (candle, live)',
  ['trigger'],
);

export const liveSweepLag = gauge(
  'perpdesk_live_sweep_lag_seconds',
  'How late the last live sweep started after its scheduled time, seconds',
);

export const feedMessageAge = scrapedGauge(
  'perpdesk_feed_message_age_seconds',
  'Age of the last price message of each connector this feed process holds, seconds',
  ['venue'],
  (set) => agesSince(feedLastMessage, set, 'venue'),
);
/** Venue -> time of its last price message, ms (the feed's sink sets it). */
export const feedLastMessage = new Map<string, number>();

/** Seconds since each of `last`'s keys was last heard, read at scrape time. */
function agesSince(last: ReadonlyMap<string, number>, set: (value: number, labels: Record<string, string>) => void, label: string): void {
  const now = Date.now();
  for (const [name, at] of last) set((now - at) / 1000, { [label]: name });
}

export const liquidationEventAge = scrapedGauge(
  'perpdesk_liquidation_event_age_seconds',
  'Age of the last liquidation event of each liquidation connector this feed process holds (from its start until the first), seconds',
  ['exchange'],
  (set) => agesSince(liquidationLastEvent, set, 'exchange'),
);
/** Exchange -> time of its connector's last liquidation event, ms (the collector's sink sets it). */
export const liquidationLastEvent = new Map<string, number>();

export const feedLeaseHeld = new Gauge({
  name: 'perpdesk_feed_lease_held',
  help:
    'Per lease this feed process competes for (a venue, liq-<exchange>): 1 while it holds it, else 0; a lease that no process ' +
    'reports at 1 has no holder',
  labelNames: ['lease'],
  registers,
});

export const feedFreshVenues = gauge(
  'perpdesk_feed_fresh_venues',
  'Venues with a fresh price in the latest aggregate the market writer stored (the most over the symbols of its last flush)',
);

export const wsOpenSockets = gauge('perpdesk_ws_open_sockets', 'WebSocket stream sockets open on this pod');

export const webhookDeliveries = counter(
  'perpdesk_webhook_deliveries_total',
  'Webhook delivery attempts by outcome (delivered; failed, retried with backoff; skipped, the hook deleted or paused)',
  ['outcome'],
);

export const webhookDeliverySeconds = histogram(
  'perpdesk_webhook_delivery_seconds',
  'From the delivery job queued by the outbox relay to the receiver 2xx, retries included, seconds',
  [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 1800],
);

export const outboxRelayLag = scrapedGauge(
  'perpdesk_outbox_relay_lag_seconds',
  'Age of the oldest unrelayed outbox entry at the relays last scan; with no scan for 3 periods, time unwatched, seconds',
  [],
  async (set) => {
    const seconds = await firstSource('outboxLag')?.().catch(() => undefined);
    if (seconds !== undefined) set(seconds);
  },
);

export const redisPingSeconds = scrapedGauge(
  'perpdesk_redis_ping_seconds',
  'Round trip of one PING on the process Redis connection, measured at scrape time, seconds',
  [],
  async (set) => {
    const seconds = await firstSource('redisPing')?.().catch(() => undefined);
    if (seconds !== undefined) set(seconds);
  },
);

/** The registry in the Prometheus text format, and its content type. */
export async function scrape(): Promise<{ contentType: string; body: string }> {
  return { contentType: metricsRegistry.contentType, body: await metricsRegistry.metrics() };
}
