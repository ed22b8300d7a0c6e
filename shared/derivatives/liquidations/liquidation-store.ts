/**
 * Liquidations in Redis. Every key shares the {liq} hash tag, so the ingest script stays in one slot
 * under Redis Cluster. Writes: one script call per batch (dedup, raw and per-symbol streams, minute
 * buckets, rolling 24 h totals). Reads: the newest events, one symbol's events, minute buckets and
 * the 24 h totals.
 */
import type { RedisClient } from '../../core/redis-client.js';
import { keys } from '../../redis/keys.js';
import { dayByteRange, daysOf, decodeDayRange, minuteOf, SLOT_MAX, type MinuteDollars } from './bucket-math.js';
import { decodeLiquidation, encodeLiquidation } from './liquidation-codec.js';
import type { CollectedLiquidation, LiquidationEvent, LiquidationSide } from './liquidation-event.js';
import { liquidationScripts } from './lua/liquidation-scripts.js';

export const TOTALS_WINDOW_MS = 86_400_000;
/** Raw events of one symbol kept for /liquidations/live (its largest limit). */
export const SYMBOL_EVENTS_KEPT = 1000;
/** Minute buckets outlive their day by 30 days, so a 43,200-minute window is always covered. */
const BUCKETS_KEPT_MS = 30 * TOTALS_WINDOW_MS;
/** Tabs and newlines separate the batch's fields and events. */
const UNSAFE = /[\t\n]/g;
/** Most 5-minute blocks one expiry call subtracts (two days: catches up after a long pause in bounded steps). */
const EXPIRE_MAX_BLOCKS = 576;
/** Most raw events one expiry call drops (it runs every few seconds). */
const EXPIRE_MAX_RAW = 20_000;

const decodeAll = (items: string[]): LiquidationEvent[] =>
  items.map(decodeLiquidation).filter((e): e is LiquidationEvent => e !== undefined);

export interface LiquidationStoreOptions {
  /**
   * A replay received within half this window to all of it after the first copy is dropped; events
   * older than half of it are refused as stale.
   */
  dedupMs: number;
  /** Most raw events kept (24 h, trimmed sooner in a storm). */
  rawMax: number;
}

export interface IngestResult {
  added: number;
  duplicates: number;
  stale: number;
}

export interface SideSums {
  usd: number;
  count: number;
}

export interface LiquidationTotals {
  /** Per canonical pair. */
  coins: Map<string, Record<LiquidationSide, SideSums>>;
  /** Per exchange. */
  exchanges: Map<string, Record<LiquidationSide, SideSums>>;
}

const emptySides = (): Record<LiquidationSide, SideSums> => ({
  long_liquidated: { usd: 0, count: 0 },
  short_liquidated: { usd: 0, count: 0 },
});

export class LiquidationStore {
  constructor(
    private readonly redis: RedisClient,
    private readonly options: LiquidationStoreOptions,
  ) {}

  /** Stores a batch; `perSymbol` says which symbols get per-symbol streams and minute buckets (the universe). */
  async ingest(events: readonly CollectedLiquidation[], perSymbol: (symbol: string) => boolean, now: number): Promise<IngestResult> {
    if (events.length === 0) return { added: 0, duplicates: 0, stale: 0 };
    const lines = new Array<string>(events.length);
    for (let i = 0; i < events.length; i++) {
      const e = events[i];
      const side = e.side === 'long_liquidated' ? 'l' : 's';
      // a clock a little ahead of ours files the event now, not in a future minute
      const ts = Math.min(e.ts, now);
      const wanted = perSymbol(e.symbol) ? '1' : '0';
      const fields = [
        e.id.replace(UNSAFE, ' '),
        e.symbol,
        e.exchange,
        side,
        Math.round(e.notional * 100),
        Math.min(SLOT_MAX, Math.round(e.notional)),
        ts,
        wanted,
        encodeLiquidation(e),
      ];
      lines[i] = fields.join('\t');
    }
    const args = [
      now,
      this.options.dedupMs,
      TOTALS_WINDOW_MS,
      this.options.rawMax,
      SYMBOL_EVENTS_KEPT,
      BUCKETS_KEPT_MS,
      keys.liqPrefix(),
      lines.join('\n'),
    ];
    const reply = await liquidationScripts.run(this.redis, 'liq-ingest', { keys: [keys.liqTotals()], args });
    const [added, duplicates, stale] = Array.isArray(reply) ? reply.map(Number) : [0, 0, 0];
    return { added, duplicates, stale };
  }

  /** Subtracts the 5-minute blocks that left the 24 h window and trims the raw list; answers how many blocks. */
  async expire(now: number): Promise<number> {
    return liquidationScripts.runInteger(this.redis, 'liq-expire', {
      keys: [keys.liqTotals()],
      args: [now, TOTALS_WINDOW_MS, EXPIRE_MAX_BLOCKS, keys.liqPrefix(), EXPIRE_MAX_RAW],
    });
  }

  /** The newest events of every symbol, newest stored first. */
  async newest(limit: number): Promise<LiquidationEvent[]> {
    return decodeAll(await this.redis.lrange(keys.liqRaw(), 0, limit - 1));
  }

  /** The newest events of one symbol (at most 1000 are kept). */
  async newestOf(symbol: string, limit: number): Promise<LiquidationEvent[]> {
    return decodeAll(await this.redis.lrange(keys.liqSymbolEvents(symbol), 0, limit - 1));
  }

  /** Long and short dollars of each minute in [fromMinute, toMinute] that had any. */
  async minutes(symbol: string, fromMinute: number, toMinute: number): Promise<Map<number, MinuteDollars>> {
    const days = daysOf(fromMinute, toMinute);
    const pipeline = this.redis.pipeline();
    for (const day of days) {
      const { start, end } = dayByteRange(day, fromMinute, toMinute);
      pipeline.getrangeBuffer(keys.liqMinuteBuckets(symbol, day), start, end);
    }
    const replies = (await pipeline.exec()) ?? [];
    const out = new Map<number, MinuteDollars>();
    days.forEach((day, i) => {
      const [error, bytes] = replies[i] ?? [];
      if (error) throw error;
      if (bytes instanceof Buffer && bytes.length > 0)
        decodeDayRange(bytes, day, fromMinute, toMinute, (minute, value) => out.set(minute, value));
    });
    return out;
  }

  /** Rolling 24 h sums per coin and per exchange. */
  async totals(): Promise<LiquidationTotals> {
    const hash = await this.redis.hgetall(keys.liqTotals());
    const coins = new Map<string, Record<LiquidationSide, SideSums>>();
    const exchanges = new Map<string, Record<LiquidationSide, SideSums>>();
    for (const [field, value] of Object.entries(hash)) {
      const m = /^(c|n|xc|xn):([^:]+):([ls])$/.exec(field);
      if (!m) continue;
      const n = Number(value);
      if (!Number.isFinite(n) || n <= 0) continue;
      const target = m[1].startsWith('x') ? exchanges : coins;
      const sides = target.get(m[2]) ?? emptySides();
      target.set(m[2], sides);
      const side = sides[m[3] === 'l' ? 'long_liquidated' : 'short_liquidated'];
      if (m[1].endsWith('c')) side.usd = n / 100;
      else side.count = n;
    }
    return { coins, exchanges };
  }

  /** Whether the collector has seen the symbol in the last 24 h. */
  async hasRecent(symbol: string): Promise<boolean> {
    const [long, short] = await this.redis.hmget(keys.liqTotals(), `n:${symbol}:l`, `n:${symbol}:s`);
    return Number(long ?? 0) > 0 || Number(short ?? 0) > 0;
  }
}

/** The minute window [from, to] ending with the minute of `now`. */
export function minuteWindow(now: number, minutes: number): { from: number; to: number } {
  const to = minuteOf(now);
  return { from: to - minutes + 1, to };
}
