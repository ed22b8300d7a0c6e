/** Sweep tests: positions seeded through the open script, outbox and counter reads, candles as sweep jobs. */
import { createDomain } from '../../shared/domain.js';
import { Queue } from 'bullmq';
import { duplicateClient, type RedisClient } from '../../shared/core/redis-client.js';
import { systemClock, type Clock } from '../../shared/core/clock.js';
import { configWith } from '../../shared/config.js';
import { priceOpen } from '../../shared/engine/open-pricing.js';
import type { Side } from '../../shared/engine/side.js';
import { PositionStore } from '../../shared/paper/positions/position-store.js';
import type { BookRef, Position } from '../../shared/paper/positions/position-types.js';
import type { Sweep } from '../../shared/paper/sweep/sweep.js';
import type { SweepJob } from '../../shared/queues/job-types.js';
import { QUEUE_PREFIX, QUEUES } from '../../shared/queues/queue-names.js';
import { keys } from '../../shared/redis/keys.js';
import { closeRedis, createBlockingRedis } from '../../shared/redis/connection.js';
import { waitFor } from './market-wait.js';
import { testRedisUrl } from './redis.js';

export const MINUTE = 60_000;

let seq = 0;

/**
 * A realistic open position priced like an open (the crypto fee): 100 USD margin at 10x opened an hour ago unless `over`
 * names another margin, leverage or open time.
 */
export function testPosition(ref: BookRef, over: Partial<Position> & { symbol: string; side: Side; entry: number }): Position {
  const { entry, side, margin = 100, leverage = 10, opened_ts: opened = Date.now() - 60 * MINUTE } = over;
  const priced = priceOpen({ side, entry, margin, leverage, baseRatePct: 0.055 });
  return {
    id: `bpsweep${(++seq).toString(36)}${Math.random().toString(36).slice(2, 8)}`,
    v: 1,
    account: ref.book,
    asset_class: 'crypto',
    status: 'open',
    qty: priced.qty,
    margin,
    leverage,
    notional_usd: margin * leverage,
    liq_price: Number(priced.liqPrice.toPrecision(12)),
    mmr_pct: priced.mmrPct,
    sl: null,
    tp: null,
    trail_pct: null,
    trail_hwm: null,
    fee_rate_pct: priced.ratePct,
    fee_venue: null,
    fee_open_usd: priced.feeOpen,
    fee_round_trip_usd: priced.feeRoundTrip,
    opened_ts: opened,
    client_order_id: null,
    source: 'api',
    funding_carry_usd: 0,
    funding_from_ts: opened,
    ...over,
  };
}

/** Opens positions through PositionStore.open (their trigger index entries included). */
export async function seedPositions(redis: RedisClient, ref: BookRef, positions: readonly Position[]): Promise<void> {
  const store = new PositionStore(redis);
  const outcomes = await Promise.all(positions.map((p) => store.open(ref, p, 1_000_000)));
  if (outcomes.some((o) => o.kind !== 'opened')) throw new Error('a seeded position did not open');
}

export interface OutboxEvent {
  id: string;
  event: string;
  book: string;
  ts: number;
  /** The position the event carries ({} for an order's event without one). */
  position: Position;
  /** A partial close's remaining part. */
  remaining?: Position;
  order?: Record<string, unknown>;
}

function outboxEntry(id: string, fields: string[]): OutboxEvent {
  const map = Object.fromEntries(Array.from({ length: fields.length / 2 }, (_, i) => [fields[2 * i], fields[2 * i + 1]]));
  return {
    id,
    event: map.event,
    book: map.book,
    ts: Number(map.ts),
    position: JSON.parse(map.position ?? '{}') as Position,
    ...(map.remaining ? { remaining: JSON.parse(map.remaining) as Position } : {}),
    ...(map.order ? { order: JSON.parse(map.order) as Record<string, unknown> } : {}),
  };
}

/** The account's outbox, oldest first, payloads parsed. */
export async function outbox(redis: RedisClient, accountId: string): Promise<OutboxEvent[]> {
  const entries = await redis.xrange(keys.accountOutbox(accountId), '-', '+');
  return entries.map(([id, fields]) => outboxEntry(id, fields));
}

/** The account's first outbox event that matches, written already or to come: the stream is read as it grows (XREAD BLOCK). */
export async function nextOutboxEvent(
  redis: RedisClient,
  accountId: string,
  match: (e: OutboxEvent) => boolean,
  timeoutMs: number,
): Promise<OutboxEvent> {
  const reader = duplicateClient(redis);
  const deadline = Date.now() + timeoutMs;
  try {
    for (let after = '0'; ;) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no matching outbox event of ${accountId} within ${timeoutMs} ms`);
      const read = await reader.xread('BLOCK', left, 'STREAMS', keys.accountOutbox(accountId), after);
      for (const [id, fields] of read?.[0]?.[1] ?? []) {
        const event = outboxEntry(id, fields);
        if (match(event)) return event;
        after = id;
      }
    }
  } finally {
    reader.disconnect();
  }
}

/**
 * Holds the minute sweep: pauses the sweep queue and waits until no sweep job runs. The candles the
 * feed stores meanwhile are queued, and swept in order once the returned release is called.
 */
export async function holdSweeps(): Promise<() => Promise<void>> {
  const connection = createBlockingRedis(testRedisUrl());
  const queue = new Queue(QUEUES.sweep, { connection, prefix: QUEUE_PREFIX });
  await queue.pause();
  await waitFor(async () => (await queue.getActiveCount()) === 0, 30_000, 'the running sweep jobs to finish');
  return async () => {
    await queue.resume();
    await queue.close();
    await closeRedis(connection);
  };
}

/** The events of one position with their payloads, oldest first. */
export async function positionEvents(redis: RedisClient, accountId: string, positionId: string): Promise<OutboxEvent[]> {
  return (await outbox(redis, accountId)).filter((e) => e.position.id === positionId);
}

/** The events of one position, oldest first. */
export async function eventsOf(redis: RedisClient, accountId: string, positionId: string): Promise<string[]> {
  return (await positionEvents(redis, accountId, positionId)).map((e) => e.event);
}

export async function closedPosition(redis: RedisClient, ref: BookRef, id: string): Promise<Position | null> {
  const raw = await redis.hget(keys.bookClosed(ref.accountId, ref.book), id);
  return raw === null ? null : (JSON.parse(raw) as Position);
}

export async function openPosition(redis: RedisClient, ref: BookRef, id: string): Promise<Position | null> {
  const raw = await redis.hget(keys.bookOpen(ref.accountId, ref.book), id);
  return raw === null ? null : (JSON.parse(raw) as Position);
}

/** The book's closed count and realized cents (what the balance moves by). */
export async function bookMoney(
  redis: RedisClient,
  ref: BookRef,
): Promise<{ closed: number; realizedCents: number; liquidations: number }> {
  const h = await redis.hgetall(keys.bookStats(ref.accountId, ref.book));
  return { closed: Number(h.closed ?? 0), realizedCents: Number(h.realized_cents ?? 0), liquidations: Number(h.liquidations ?? 0) };
}

/** A closed candle of a minute after the seeded positions opened. */
export function candle(symbol: string, minute: number, low: number, high: number): SweepJob {
  return { symbol, minute, open: low, high, low, close: high };
}

/** The sweep module on a connection, with the test config's freshness rules and tick. */
export function testSweep(redis: RedisClient, clock: Clock = systemClock): Sweep {
  return createDomain({ config: configWith({}), redis, clock }).sweep;
}
