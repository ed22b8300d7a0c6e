/**
 * Resting-order tests: a real API server whose clock the test moves, and the minute sweep's order
 * step and the expiry job on that same clock, all on the suite's Redis (emptied before each test).
 */
import { createDomain } from '../../shared/domain.js';
import type { Job } from 'bullmq';
import type { RedisClient } from '../../shared/core/redis-client.js';
import { startApiServer, type ApiServer } from '../../api/server.js';
import type { Clock } from '../../shared/core/clock.js';
import { configWith, type Config } from '../../shared/config.js';
import { createLogger } from '../../shared/core/logger.js';
import { MINUTE_MS } from '../../shared/engine/order-rules.js';
import type { AccountServices } from '../../shared/paper/accounts/account-services.js';
import type { FillSummary, OrderSweep } from '../../shared/paper/orders/order-sweep.js';
import type { SweepJob } from '../../shared/queues/job-types.js';
import { closeRedis } from '../../shared/redis/connection.js';
import { keys } from '../../shared/redis/keys.js';
import { orderExpiryProcessor } from '../../workers/processors/orders/order-expiry-processor.js';
import { flushRedis, freshRedis, testRedisUrl } from './redis.js';
import { accountServices, createTrader, TestPrices, type Trader } from './trading.js';

/**
 * Ten minutes behind the wall clock to start with: prices written now stay fresh for the API
 * while the test moves its clock forward by minutes.
 */
export class MovableClock implements Clock {
  shift = -10 * MINUTE_MS;
  now(): number {
    return Date.now() + this.shift;
  }
  advance(ms: number): void {
    this.shift += ms;
  }
}

export interface OutboxEvent {
  event: string;
  order?: Record<string, unknown>;
  position?: Record<string, unknown>;
}

export interface OrderFixture {
  readonly redis: RedisClient;
  readonly api: ApiServer;
  readonly clock: MovableClock;
  readonly mod: AccountServices;
  readonly prices: TestPrices;
  /** A new trader (Business plan) of each test, with BTC at 65,000 and ETH at 3,500. */
  readonly trader: Trader;
  /** The sweep step for one closed candle (open and close default to the middle of the range). */
  candle(symbol: string, minute: number, low: number, high: number): Promise<FillSummary>;
  /** Runs the orders queue's expiry job as the worker would, `ahead` ms after the API's clock. */
  expire(ahead: number): Promise<unknown>;
  /** The account's outbox entries of the spec's events (a placement's order.placed, the channel's, left out). */
  events(accountId: string): Promise<OutboxEvent[]>;
}

export function useOrderFixture(): OrderFixture {
  let redis: RedisClient | undefined;
  let api: ApiServer | undefined;
  let sweep: OrderSweep | undefined;
  let mod: AccountServices | undefined;
  let prices: TestPrices | undefined;
  let trader: Trader | undefined;
  let config: Config | undefined;
  const clock = new MovableClock();
  const need = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('useOrderFixture: read it inside a test or a later hook');
    return value;
  };
  before(async () => {
    // the suite's Redis starts in a root hook, after describe blocks are built
    config = configWith({ REDIS_URL: testRedisUrl(), PORT: '0', HOST: '127.0.0.1', PUBLIC_RATE_LIMIT: '100000000' });
    redis = await freshRedis();
    const domain = createDomain({ config, redis, clock });
    api = await startApiServer({ domain, logger: createLogger(config) });
    sweep = domain.orderSweep;
    mod = accountServices(redis);
  });
  beforeEach(async () => {
    // the order indexes are cross-account: each test starts from an empty Redis so no other test's orders fill
    await flushRedis(need(redis));
    prices = new TestPrices(need(redis));
    await prices.set({ BTCUSDT: 65000, ETHUSDT: 3500 });
    trader = await createTrader(need(mod));
  });
  after(async () => {
    await api?.close();
    if (redis) await closeRedis(redis);
  });
  return {
    get redis() {
      return need(redis);
    },
    get api() {
      return need(api);
    },
    clock,
    get mod() {
      return need(mod);
    },
    get prices() {
      return need(prices);
    },
    get trader() {
      return need(trader);
    },
    candle: (symbol, minute, low, high) => {
      const mid = (low + high) / 2;
      const job: SweepJob = { symbol, minute, open: mid, high, low, close: mid };
      return need(sweep).fillCandle(job);
    },
    expire: async (ahead) => {
      const later: Clock = { now: () => clock.now() + ahead };
      const settings = need(config);
      const processor = orderExpiryProcessor.create({
        domain: createDomain({ config: settings, redis: need(redis), clock: later }),
        redisUrl: testRedisUrl(),
        logger: createLogger(settings),
      });
      // the expiry job carries no data: any job of the queue runs it
      return processor.process({ name: 'expire', data: {} } as Job);
    },
    events: async (accountId) => {
      const entries = await need(redis).xrange(keys.accountOutbox(accountId), '-', '+');
      // a placement's order.placed is the channel's (the Binance user-data stream's NEW), not an event of the spec
      return entries
        .flatMap(([, fields]) => (fields[1] === 'order.placed' ? [] : [fields]))
        .map((fields) => {
          const map = new Map(Array.from({ length: fields.length / 2 }, (_, i) => [fields[2 * i], fields[2 * i + 1]] as const));
          const json = (name: string) => (map.has(name) ? (JSON.parse(map.get(name) ?? '') as Record<string, unknown>) : undefined);
          return { event: map.get('event') ?? '', order: json('order'), position: json('position') };
        });
    },
  };
}
