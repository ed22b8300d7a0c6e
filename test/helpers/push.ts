/** Push tests: real WebSocket clients of the stream, a real loopback webhook receiver, and the relay in-process. */
import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RedisClient } from '../../shared/core/redis-client.js';
import { Queue } from 'bullmq';
import { WebSocket } from 'ws';
import { configWith, type Config } from '../../shared/config.js';
import type { AccountServices } from '../../shared/paper/accounts/account-services.js';
import { closeRedis } from '../../shared/redis/connection.js';
import { keys } from '../../shared/redis/keys.js';
import { QUEUE_PREFIX, QUEUES } from '../../shared/queues/queue-names.js';
import { createLogger } from '../../shared/core/logger.js';
import { createDomain } from '../../shared/domain.js';
import type { RunningRole } from '../../workers/runtime.js';
import { webhookProcessor } from '../../workers/processors/webhooks/webhook-processor.js';
import { startOutboxRelay } from '../../workers/start-outbox-relay.js';
import { startWorkerRole, type WorkerRoleOptions } from '../../workers/worker-role.js';
import { startTestApi, type TestApi } from './app.js';
import { Arrivals } from './arrivals.js';
import { waitFor } from './market-wait.js';
import { freshRedis, testRedisUrl } from './redis.js';
import { accountServices } from './trading.js';

export interface StreamMessage {
  type: string;
  data?: Record<string, unknown>;
  ts: number;
}

export interface TestStream {
  ws: WebSocket;
  messages: StreamMessage[];
  /** The first message (from `from` on) that matches, waiting for it if needed. */
  next(match: (message: StreamMessage) => boolean, timeoutMs?: number, from?: number): Promise<StreamMessage>;
  closed: Promise<{ code: number; reason: string }>;
  send(frame: unknown): void;
}

/** Connects to the stream of an API at `base` (http URL) with query parameters (api_key, key or token). */
export function connectStream(base: string, query: Record<string, string>): TestStream {
  const url = `${base.replace(/^http/, 'ws')}/api/bot/v2/stream?${new URLSearchParams(query).toString()}`;
  const ws = new WebSocket(url);
  const messages: StreamMessage[] = [];
  const arrivals = new Arrivals(
    () => messages,
    () => `stream messages ${JSON.stringify(messages.map((m) => m.type))}`,
  );
  ws.on('message', (data) => {
    messages.push(JSON.parse(data.toString()) as StreamMessage);
    arrivals.arrived();
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.once('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  return {
    ws,
    messages,
    closed,
    send: (frame) => ws.send(JSON.stringify(frame)),
    next: (match, timeoutMs = 5_000, from = 0) => arrivals.next(match, timeoutMs, from),
  };
}

export interface RefusedUpgrade {
  status: number;
  body: unknown;
}

/**
 * A WebSocket handshake with the stream that the server must refuse with an HTTP answer instead of
 * a socket: that answer's status and JSON body. Rejects when a socket opens.
 */
export function refusedUpgrade(base: string, query: Record<string, string>): Promise<RefusedUpgrade> {
  const ws = new WebSocket(`${base.replace(/^http/, 'ws')}/api/bot/v2/stream?${new URLSearchParams(query).toString()}`);
  // aborting the handshake reports an error: it is the expected end here
  ws.on('error', () => undefined);
  return new Promise((resolve, reject) => {
    ws.once('open', () => {
      ws.terminate();
      reject(new Error('the upgrade was accepted: a socket opened'));
    });
    ws.once('unexpected-response', (_req, res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.once('end', () => {
        ws.terminate();
        resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString()) as unknown });
      });
    });
  });
}

/** The stream's close, which must come within `ms` from now (the test fails otherwise). */
export async function closedWithin(stream: TestStream, ms: number): Promise<{ code: number; reason: string }> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>(
    (_resolve, reject) => (timer = setTimeout(() => reject(new Error(`the stream was not closed within ${ms} ms`)), ms)),
  );
  try {
    return await Promise.race([stream.closed, late]);
  } finally {
    clearTimeout(timer);
  }
}

export interface ReceivedDelivery {
  headers: IncomingMessage['headers'];
  body: string;
  at: number;
}

export interface TestReceiver {
  url: string;
  received: ReceivedDelivery[];
  /** What the next request is answered (status), or 'hang' to never answer it; default 200. */
  answer: (delivery: ReceivedDelivery) => number | 'hang';
  close(): Promise<void>;
}

/** A real HTTP server on loopback that records every request it gets. */
export async function startReceiver(): Promise<TestReceiver> {
  const hanging = new Set<ServerResponse>();
  const receiver: TestReceiver = { url: '', received: [], answer: () => 200, close: async () => undefined };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const delivery = { headers: req.headers, body: Buffer.concat(chunks).toString(), at: Date.now() };
      receiver.received.push(delivery);
      const answer = receiver.answer(delivery);
      if (answer === 'hang') {
        hanging.add(res);
        return;
      }
      res.writeHead(answer, answer >= 300 && answer < 400 ? { location: 'http://169.254.169.254/latest/meta-data/' } : {}).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  receiver.close = () =>
    new Promise((resolve) => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return receiver;
}

/** True when the delivery's X-PD-Signature is the HMAC-SHA256 of its raw body under the secret. */
export function signatureVerifies(delivery: ReceivedDelivery, secret: string): boolean {
  const expected = `sha256=${createHmac('sha256', secret).update(delivery.body).digest('hex')}`;
  return delivery.headers['x-pd-signature'] === expected;
}

/** The outbox relay on the suite's Redis, as the worker role runs it. */
export function startTestRelay(redis: RedisClient, env: Record<string, string> = {}): Promise<RunningRole> {
  const config: Config = configWith({ REDIS_URL: testRedisUrl(), ...env });
  return startOutboxRelay({ config, redisUrl: testRedisUrl(), redis, logger: createLogger(config) }, createDomain({ config, redis }));
}

/** A worker role running only the webhook processor (and the relay unless told otherwise), as a worker process would. */
export function startWebhookWorker(redis: RedisClient, env: Record<string, string>, options: WorkerRoleOptions = {}): Promise<RunningRole> {
  const config = configWith({ REDIS_URL: testRedisUrl(), ...env });
  return startWorkerRole(
    { config, redisUrl: testRedisUrl(), redis, logger: createLogger(config) },
    { processors: [webhookProcessor], schedules: [], ...options },
  );
}

export interface WebhookStack {
  readonly redis: RedisClient;
  readonly api: TestApi;
  readonly receiver: TestReceiver;
  readonly mod: AccountServices;
}

/**
 * Registers before/after hooks for a describe block: a freshly emptied suite Redis, a real API and a
 * webhook worker (with the outbox relay) on `env`, and a receiver for the deliveries. Read the
 * fields inside tests or later hooks.
 */
export function useWebhookStack(env: Record<string, string>): WebhookStack {
  let started: { redis: RedisClient; api: TestApi; worker: RunningRole; receiver: TestReceiver; mod: AccountServices } | undefined;
  const need = () => {
    if (!started) throw new Error('useWebhookStack: read it inside a test or a later hook');
    return started;
  };
  before(async () => {
    const redis = await freshRedis();
    const api = await startTestApi(redis, env);
    const worker = await startWebhookWorker(redis, env);
    started = { redis, api, worker, receiver: await startReceiver(), mod: accountServices(redis) };
  });
  after(async () => {
    if (!started) return;
    await started.worker.stop();
    await started.api.close();
    await started.receiver.close();
    await closeRedis(started.redis);
  });
  return {
    get redis() {
      return need().redis;
    },
    get api() {
      return need().api;
    },
    get receiver() {
      return need().receiver;
    },
    get mod() {
      return need().mod;
    },
  };
}

/**
 * Records an account's outbox in its slot's index of unrelayed outboxes, as the scripts that append do in the same step
 * (lua/includes/outbox-appended.lua): a test that appends with XADD adds this, or only a nudge can find the entries.
 */
export async function indexOutbox(redis: RedisClient, accountId: string): Promise<void> {
  await redis.sadd(keys.outboxIndex(accountId), keys.accountOutbox(accountId));
}

/** The fields of a position.opened outbox entry as the scripts write it, for XADD after the stream key and id. */
export function openedOutboxFields(positionId: string): string[] {
  const position = JSON.stringify({ id: positionId, symbol: 'BTCUSDT', status: 'open' });
  return ['event', 'position.opened', 'book', 'main', 'ts', String(Date.now()), 'position', position];
}

/**
 * Waits until no delivery is left to come: the accounts' outboxes are empty (the relay removes an entry only once its
 * jobs are queued) and the webhook queue holds no job to run, now or on a retry.
 */
export async function webhooksIdle(redis: RedisClient, accountIds: string[], timeoutMs = 10_000): Promise<void> {
  const queue = new Queue(QUEUES.webhooks, { connection: redis, prefix: QUEUE_PREFIX });
  try {
    await waitFor(
      async () => {
        for (const id of accountIds) if ((await redis.xlen(keys.accountOutbox(id))) > 0) return false;
        const counts = await queue.getJobCounts('waiting', 'active', 'delayed', 'prioritized', 'waiting-children');
        return Object.values(counts).every((n) => n === 0);
      },
      timeoutMs,
      'the outboxes and the webhook queue empty',
    );
  } finally {
    await queue.close();
  }
}
