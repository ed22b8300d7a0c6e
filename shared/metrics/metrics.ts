/**
 * The process's Prometheus metrics: one registry, every definition in this file. Labels take only
 * values from fixed sets (route templates of the catalog, status classes, queue names, venues,
 * plans, scopes, outcomes): never a raw URL, a symbol or an id. What needs a read from Redis (queue
 * counts, the ping) is read when the registry is scraped, through the sources a role registers
 * (setScrapeSources), never per request.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export const metricsRegistry = new Registry();
collectDefaultMetrics({ register: metricsRegistry });

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

const firstSource = <K extends keyof ScrapeSources>(name: K): ScrapeSources[K] => sources.find((s) => s[name])?.[name];

export const httpRequestDuration = new Histogram({
  name: 'perpdesk_http_request_duration_seconds',
  help: 'HTTP requests by method, route template (unmatched for unknown paths) and status class, seconds until the response finished',
  labelNames: ['method', 'route', 'status_class'] as const,
  buckets: SECONDS,
  registers,
});

export const rateLimitRejections = new Counter({
  name: 'perpdesk_rate_limit_rejections_total',
  help: 'Requests and stream upgrades answered 429, by budget scope (ip, key, bad_key)',
  labelNames: ['scope'] as const,
  registers,
});

export const keyedRequests = new Counter({
  name: 'perpdesk_keyed_requests_total',
  help: 'Requests to keyed routes with a valid API key, by the key account plan',
  labelNames: ['plan'] as const,
  registers,
});

export const queueJobs = new Gauge({
  name: 'perpdesk_queue_jobs',
  help: 'BullMQ jobs per queue and state (waiting, active, delayed, failed), read at scrape time and cached a few seconds',
  labelNames: ['queue', 'state'] as const,
  registers,
  async collect() {
    this.reset();
    const read = firstSource('queueCounts');
    if (!read) return;
    const counts = await read().catch(() => undefined);
    if (!counts) return;
    for (const [queue, byState] of Object.entries(counts)) for (const state of QUEUE_STATES) this.set({ queue, state }, byState[state]);
  },
});

export const jobDuration = new Histogram({
  name: 'perpdesk_job_duration_seconds',
  help: 'BullMQ jobs processed by this worker, by queue and outcome (completed, failed), seconds',
  labelNames: ['queue', 'outcome'] as const,
  buckets: SECONDS,
  registers,
});

export const minuteSweepDuration = new Histogram({
  name: 'perpdesk_minute_sweep_duration_seconds',
  help: 'One closed candle swept (resting orders, then positions), seconds',
  buckets: SECONDS,
  registers,
});

export const sweepSettlements = new Counter({
  name: 'perpdesk_sweep_settlements_total',
  help: 'Positions the sweep closed (stops, targets, liquidations), by trigger (candle, live)',
  labelNames: ['trigger'] as const,
  registers,
});

export const liveSweepLag = new Gauge({
  name: 'perpdesk_live_sweep_lag_seconds',
  help: 'How late the last live sweep started after its scheduled time, seconds',
  registers,
});

export const feedMessageAge = new Gauge({
  name: 'perpdesk_feed_message_age_seconds',
  help: 'Age of the last price message of each connector this feed process holds, seconds',
  labelNames: ['venue'] as const,
  registers,
  collect() {
    this.reset();
    const now = Date.now();
    for (const [venue, at] of feedLastMessage) this.set({ venue }, (now - at) / 1000);
  },
});
/** Venue -> time of its last price message, ms (the feed's sink sets it). */
export const feedLastMessage = new Map<string, number>();

export const feedFreshVenues = new Gauge({
  name: 'perpdesk_feed_fresh_venues',
  help: 'Venues with a fresh price in the latest aggregate the market writer stored (the most over the symbols of its last flush)',
  registers,
});

export const wsOpenSockets = new Gauge({
  name: 'perpdesk_ws_open_sockets',
  help: 'WebSocket stream sockets open on this pod',
  registers,
});

export const webhookDeliveries = new Counter({
  name: 'perpdesk_webhook_deliveries_total',
  help: 'Webhook delivery attempts by outcome (delivered; failed, retried with backoff; skipped, the hook deleted or paused)',
  labelNames: ['outcome'] as const,
  registers,
});

export const webhookDeliverySeconds = new Histogram({
  name: 'perpdesk_webhook_delivery_seconds',
  help: 'From the delivery job queued by the outbox relay to the receiver 2xx, retries included, seconds',
  buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 1800],
  registers,
});

export const outboxRelayLag = new Gauge({
  name: 'perpdesk_outbox_relay_lag_seconds',
  help: 'Age of the oldest entry of the last outbox batch this process relayed (the account outbox head), seconds',
  registers,
});

export const redisPingSeconds = new Gauge({
  name: 'perpdesk_redis_ping_seconds',
  help: 'Round trip of one PING on the process Redis connection, measured at scrape time, seconds',
  registers,
  async collect() {
    this.reset();
    const ping = firstSource('redisPing');
    if (!ping) return;
    const seconds = await ping().catch(() => undefined);
    if (seconds !== undefined) this.set(seconds);
  },
});

/** The registry in the Prometheus text format, and its content type. */
export async function scrape(): Promise<{ contentType: string; body: string }> {
  return { contentType: metricsRegistry.contentType, body: await metricsRegistry.metrics() };
}
