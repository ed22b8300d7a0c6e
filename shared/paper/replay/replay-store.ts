/**
 * Redis for replays: a key's replay state (one hash in the account's slot, changed only by the
 * scripts in lua/), the cached candles of a past day, and the replay journal's position store: the
 * ordinary position store and scripts over a book of the account named after the replay, whose
 * events go to a stream of its own (never the outbox, so never the stream, webhooks or boards) and
 * which stays out of the per-symbol trigger indexes (the replay's clock sweeps it, not the live sweep).
 */
import type { RedisClient } from '../../core/redis-client.js';
import type { Candle } from '../../market/types.js';
import { keys } from '../../redis/keys.js';
import { PositionStore } from '../positions/position-store.js';
import type { BookRef, Position } from '../positions/position-types.js';
import { replayScripts } from './lua/replay-scripts.js';

/** Events kept in a journal's stream (nobody relays them; kept for inspection, trimmed by the clock). */
const JOURNAL_EVENTS_KEPT = 1_000;

export interface ReplayState {
  id: string;
  keyId: string;
  accountId: string;
  /** Canonical pair. */
  symbol: string;
  day: string;
  speed: number;
  startTs: number;
  endTs: number;
  startedAt: number;
  sweptTo: number;
  candles: number;
  firstPrice: number;
  finished: boolean;
  /** The journal: a book of the account ('~' + id: no book a client can name). */
  book: string;
}

export const journalBook = (replayId: string): string => `~${replayId}`;
export const journalRef = (s: Pick<ReplayState, 'accountId' | 'book'>): BookRef => ({ accountId: s.accountId, book: s.book });

function stateFields(s: ReplayState): (string | number)[] {
  return [
    'id',
    s.id,
    'key_id',
    s.keyId,
    'account_id',
    s.accountId,
    'symbol',
    s.symbol,
    'day',
    s.day,
    'speed',
    s.speed,
    'start_ts',
    s.startTs,
    'end_ts',
    s.endTs,
    'started_at',
    s.startedAt,
    'swept_to',
    s.sweptTo,
    'candles',
    s.candles,
    'first_price',
    s.firstPrice,
    'finished',
    s.finished ? 1 : 0,
    'book',
    s.book,
  ];
}

function parseState(h: Record<string, string>): ReplayState | null {
  if (!h.id) return null;
  return {
    id: h.id,
    keyId: h.key_id,
    accountId: h.account_id,
    symbol: h.symbol,
    day: h.day,
    speed: Number(h.speed),
    startTs: Number(h.start_ts),
    endTs: Number(h.end_ts),
    startedAt: Number(h.started_at),
    sweptTo: Number(h.swept_to),
    candles: Number(h.candles),
    firstPrice: Number(h.first_price),
    finished: h.finished === '1',
    book: h.book,
  };
}

/** A store whose positions are a replay journal's: stamped src replay, events and book name kept apart, no trigger indexes. */
class JournalPositionStore extends PositionStore {
  override open(ref: BookRef, position: Position, cap: number): ReturnType<PositionStore['open']> {
    return super.open(ref, { ...position, src: 'replay' }, cap);
  }
}

export type AdvanceOutcome = { kind: 'moved' } | { kind: 'stale'; sweptTo: number } | { kind: 'stopped' };
export type StopOutcome = { kind: 'stopped' } | { kind: 'open'; open: number } | { kind: 'missing' };

export class ReplayStore {
  /** The position store of every replay journal (the book names the journal). */
  readonly journal: PositionStore;

  constructor(
    private readonly redis: RedisClient,
    private readonly candleTtlS: number,
  ) {
    this.journal = new JournalPositionStore(redis, {
      outbox: keys.replayEvents,
      // a journal's events are never relayed: nothing to index
      index: keys.replayEvents,
      // a replay's trades leave with the replay, never by the retention
      pruneIndex: keys.replayEvents,
      books: keys.replayBooks,
      triggerIndexes: false,
    });
  }

  async get(accountId: string, keyId: string): Promise<ReplayState | null> {
    return parseState(await this.redis.hgetall(keys.replayState(accountId, keyId)));
  }

  /** Records a new replay; false when the key has one already. */
  async start(state: ReplayState): Promise<boolean> {
    const [status] = await replayScripts.runStatus(this.redis, 'replay-start', {
      keys: [keys.replayState(state.accountId, state.keyId)],
      args: stateFields(state),
    });
    return status === 1;
  }

  /** Moves the sweep frontier from `from` to `to` if it is still at `from`. */
  async advance(s: ReplayState, from: number, to: number): Promise<AdvanceOutcome> {
    const [status, value] = await replayScripts.runStatus(this.redis, 'replay-advance', {
      keys: [keys.replayState(s.accountId, s.keyId), keys.replayEvents(s.accountId)],
      args: [s.id, from, to, s.endTs, JOURNAL_EVENTS_KEPT],
    });
    if (status === 1) return { kind: 'moved' };
    if (status === -1) return { kind: 'stale', sweptTo: Number(value) };
    return { kind: 'stopped' };
  }

  /** Deletes the replay and empties its journal, if the journal holds no open position. */
  async stop(s: ReplayState): Promise<StopOutcome> {
    const { accountId, book } = s;
    const [status, value] = await replayScripts.runStatus(this.redis, 'replay-stop', {
      keys: [
        keys.replayState(accountId, s.keyId),
        keys.bookOpen(accountId, book),
        keys.bookClosed(accountId, book),
        keys.bookClosedByTime(accountId, book),
        keys.bookStats(accountId, book),
        keys.replayEvents(accountId),
        keys.replayBooks(accountId),
      ],
      args: [s.id, book],
    });
    if (status === 1) return { kind: 'stopped' };
    if (status === -1) return { kind: 'open', open: Number(value) };
    return { kind: 'missing' };
  }

  /** A past day's cached candles; null when not cached. */
  async cachedCandles(symbol: string, day: string): Promise<Candle[] | null> {
    const raw = await this.redis.get(keys.replayCandles(symbol, day));
    if (raw === null) return null;
    return (JSON.parse(raw) as number[][]).map(([openTime, open, high, low, close, volume]) => ({
      openTime,
      open,
      high,
      low,
      close,
      volume,
      closed: true,
    }));
  }

  async cacheCandles(symbol: string, day: string, candles: readonly Candle[]): Promise<void> {
    const rows = candles.map((c) => [c.openTime, c.open, c.high, c.low, c.close, c.volume]);
    await this.redis.set(keys.replayCandles(symbol, day), JSON.stringify(rows), 'EX', this.candleTtlS);
  }
}
