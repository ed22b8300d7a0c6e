/**
 * The settlement side of the arena: the outbox relay hands each batch of an account's entries here
 * before it removes them, and the position.closed and position.liquidated entries are counted in
 * their books' season tallies (arena-close.lua counts each entry once, however often it is relayed).
 */
import { seasonExpiresAt, seasonOf } from '../engine/arena-season.js';
import type { CloseFacts } from '../engine/arena-stats.js';
import { toCents } from '../engine/side.js';
import type { OutboxEntry } from '../push/push-event.js';
import { bookMember, type ArenaStore, type SeasonClose } from './arena-store.js';

const CLOSE_EVENTS = new Set(['position.closed', 'position.liquidated']);

/** What the arena reads of a closed record (the realism stamp and src are absent on records written before them). */
interface ClosedRecord {
  closed_ts?: number;
  pnl_usd?: number;
  roe_pct?: number;
  liquidated?: boolean;
  /** 'replay' on a replay's rows, which never reach the boards. */
  src?: string;
  realism?: { slippage?: boolean; margin_tiers?: boolean };
}

/**
 * The close an outbox entry carries, with its season; null for any other entry, a replay row, or
 * an entry whose record does not parse (the relay logs those). Pure.
 */
export function seasonCloseOf(accountId: string, entry: OutboxEntry): { season: number; close: SeasonClose } | null {
  const { event, position, book, ts } = entry.fields;
  if (!CLOSE_EVENTS.has(event) || position === undefined) return null;
  let record: ClosedRecord;
  try {
    record = JSON.parse(position) as ClosedRecord;
  } catch {
    return null;
  }
  if (record === null || typeof record !== 'object' || record.src === 'replay') return null;
  const closedTs = record.closed_ts ?? Number(ts);
  if (!Number.isFinite(closedTs)) return null;
  const facts: CloseFacts = {
    pnlCents: toCents(record.pnl_usd ?? 0),
    roeBp: Math.round((record.roe_pct ?? 0) * 100),
    liquidated: record.liquidated === true,
    slippage: record.realism?.slippage === true,
    tiered: record.realism?.margin_tiers === true,
  };
  return { season: seasonOf(closedTs), close: { member: bookMember(accountId, book || 'main'), entryId: entry.id, facts } };
}

/** What the outbox relay calls with each batch of an account's entries it relays (the arena's recorder; a bench passes a stand-in). */
export interface CloseCounter {
  record(accountId: string, entries: readonly OutboxEntry[]): Promise<void>;
}

export class ArenaRecorder implements CloseCounter {
  constructor(private readonly store: ArenaStore) {}

  /** Counts the closes among one account's entries (in outbox order), one script call per season they fall in. */
  async record(accountId: string, entries: readonly OutboxEntry[]): Promise<void> {
    const bySeason = new Map<number, SeasonClose[]>();
    for (const entry of entries) {
      const found = seasonCloseOf(accountId, entry);
      if (found === null) continue;
      const closes = bySeason.get(found.season);
      if (closes) closes.push(found.close);
      else bySeason.set(found.season, [found.close]);
    }
    await Promise.all([...bySeason].map(([season, closes]) => this.store.record(season, seasonExpiresAt(season), closes)));
  }
}
