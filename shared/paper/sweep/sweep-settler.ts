/**
 * Settles what a window of prices triggers, through the same scripts as a manual close: each
 * position as read is decided in TypeScript (shared/engine/triggers.ts), settled with computeClose,
 * and written by position-close.lua only if it is still exactly as read (CAS on its JSON digest),
 * so a sweep racing a manual close, another sweep or a retried job settles it once. A position that
 * changed meanwhile is read again and decided again. Trailing-stop ratchets go through
 * position-sltp.lua the same way. Reads and scripts go in pipelines of up to 500, two in flight.
 */
import type { Clock } from '../../core/clock.js';
import { fundingCost, type FundingRecord } from '../../engine/funding.js';
import type { Side } from '../../engine/side.js';
import { CLOSE_REASONS, decide, type PriceWindow, type Trigger } from '../../engine/triggers.js';
import type { FundingStore } from '../funding/funding-store.js';
import { computeClose } from '../positions/close-service.js';
import { MAX_ATTEMPTS } from '../positions/position-deps.js';
import type { CloseOutcome, CloseWrite, LevelsOutcome, LevelsWrite, PositionStore } from '../positions/position-store.js';
import { triggerMember, type Position, type StoredPosition } from '../positions/position-types.js';
import { inBatches } from './batches.js';
import type { PositionRef, SweepStore } from './sweep-store.js';

/** One position to decide against a window of prices. */
export interface SweepTarget extends PositionRef {
  window: PriceWindow;
  /** The window is a closed candle (the minute sweep): see decide() in shared/engine/triggers.ts. */
  candle: boolean;
  /** Funding is owed up to here (a candle's trigger happened within its minute). */
  fundingTo: number;
  /** The position as already read, when the caller has it (saves the first read). */
  read?: StoredPosition;
  /** The index the member came from: where to drop it when its position is gone. */
  hint?: { symbol: string; side: Side };
}

export interface SweepReport {
  /** Distinct positions the indexes (or the book) offered. */
  checked: number;
  /** Positions this sweep closed (liquidations included). */
  settled: number;
  liquidated: number;
  /** Trailing stops this sweep tightened. */
  ratcheted: number;
  /** Index members dropped because their position is no longer open. */
  dropped: number;
}

export const emptyReport = (): SweepReport => ({ checked: 0, settled: 0, liquidated: 0, ratcheted: 0, dropped: 0 });

export function addReports(a: SweepReport, b: SweepReport): SweepReport {
  return { checked: a.checked + b.checked, settled: a.settled + b.settled, liquidated: a.liquidated + b.liquidated, ratcheted: a.ratcheted + b.ratcheted, dropped: a.dropped + b.dropped };
}

export interface SettlerDeps {
  store: PositionStore;
  index: SweepStore;
  funding: FundingStore;
  clock: Clock;
}

interface Decided<T> {
  target: SweepTarget;
  read: StoredPosition;
  decision: T;
}

type Settle = { trigger: Trigger };
type Ratchet = { trail_hwm: number; trail_ts: number };

export class SweepSettler {
  constructor(private readonly deps: SettlerDeps) {}

  /**
   * Decides and applies every target, in batches (read, decide, settle) so little is held at once;
   * targets whose position changed meanwhile are read and decided again.
   */
  async apply(targets: readonly SweepTarget[]): Promise<SweepReport> {
    const report = { ...emptyReport(), checked: targets.length };
    const funding = new FundingCache(this.deps.funding);
    let pending: readonly SweepTarget[] = targets;
    for (let attempt = 0; attempt < MAX_ATTEMPTS && pending.length > 0; attempt++) {
      pending = await inBatches(pending, (batch) => this.applyBatch(batch, report, funding, attempt === 0));
    }
    return report;
  }

  /** One batch: answers the targets to decide again. */
  private async applyBatch(batch: readonly SweepTarget[], report: SweepReport, funding: FundingCache, first: boolean): Promise<SweepTarget[]> {
    const reads = await this.read(batch);
    const closes: Decided<Settle>[] = [];
    const ratchets: Decided<Ratchet>[] = [];
    const gone: SweepTarget[] = [];
    batch.forEach((target, i) => {
      const read = reads[i];
      if (!read) return void gone.push(target);
      // a member naming a position of another symbol or side is no hint for this window
      if (target.hint && (read.position.symbol !== target.hint.symbol || read.position.side !== target.hint.side)) return;
      const decision = decide(read.position, target.window, target.candle);
      if (decision.kind === 'settle') closes.push({ target, read, decision });
      else if (decision.kind === 'ratchet') ratchets.push({ target, read, decision });
    });
    // awaited apart: batches run side by side, and `+= await` would add to a count read before the wait
    const dropped = first ? await this.dropGone(gone) : 0;
    report.dropped += dropped;
    const now = this.deps.clock.now();
    const owed = await funding.owed(closes.map((d) => ({ p: d.read.position, to: Math.min(now, d.target.fundingTo) })));
    const [closed, ratcheted] = await Promise.all([
      this.deps.store.closeMany(closes.map((d, i) => settleWrite(d, owed[i], now))),
      this.deps.store.sltpMany(ratchets.map((d) => ratchetWrite(d, now))),
    ]);
    return [...tally(report, closes, closed), ...tallyRatchets(report, ratchets, ratcheted)];
  }

  private read(targets: readonly SweepTarget[]): Promise<(StoredPosition | null)[]> {
    if (targets.every((t) => t.read)) return Promise.resolve(targets.map((t) => t.read ?? null));
    return this.deps.index.positions(targets);
  }

  /** Drops the index members of positions that are no longer open. */
  private async dropGone(gone: readonly SweepTarget[]): Promise<number> {
    const stale = gone.flatMap((t) => (t.hint ? [{ ...t.hint, member: triggerMember(t.ref, t.id) }] : []));
    await this.deps.index.drop(stale);
    return stale.length;
  }
}

/**
 * Funding owed at settlement. A symbol's records are read once per sweep for the span its first
 * batch needs, and again only when a later batch needs a wider one, never once per position.
 */
class FundingCache {
  private readonly spans = new Map<string, { from: number; to: number; records: Promise<FundingRecord[]> }>();

  constructor(private readonly funding: FundingStore) {}

  /** What each position owes up to its time. */
  async owed(items: readonly { p: Position; to: number }[]): Promise<number[]> {
    const needed = new Map<string, { from: number; to: number }>();
    for (const { p, to } of items) {
      const n = needed.get(p.symbol);
      needed.set(p.symbol, { from: Math.min(n?.from ?? Infinity, p.funding_from_ts), to: Math.max(n?.to ?? -Infinity, to) });
    }
    for (const [symbol, n] of needed) {
      const have = this.spans.get(symbol);
      if (have && have.from <= n.from && have.to >= n.to) continue;
      const from = Math.min(have?.from ?? n.from, n.from);
      const to = Math.max(have?.to ?? n.to, n.to);
      this.spans.set(symbol, { from, to, records: this.funding.between(symbol, from, to) });
    }
    return Promise.all(
      items.map(async ({ p, to }) => {
        const records = (await this.spans.get(p.symbol)?.records) ?? [];
        return p.funding_carry_usd + fundingCost(p.side, p.qty, records.filter((r) => r.time > p.funding_from_ts && r.time <= to));
      }),
    );
  }
}

/** Counts what settled; answers the targets to decide again (their position changed since it was read). */
function tally(report: SweepReport, decided: readonly Decided<Settle>[], outcomes: readonly CloseOutcome[]): SweepTarget[] {
  const again: SweepTarget[] = [];
  outcomes.forEach((outcome, i) => {
    if (outcome.kind === 'closed') {
      report.settled++;
      if (decided[i].decision.trigger.reason === CLOSE_REASONS.liquidation) report.liquidated++;
    } else if (outcome.kind === 'stale') again.push({ ...decided[i].target, read: undefined });
    // already closed or gone: another sweep or a manual close settled it first
  });
  return again;
}

function tallyRatchets(report: SweepReport, decided: readonly Decided<Ratchet>[], outcomes: readonly LevelsOutcome[]): SweepTarget[] {
  const again: SweepTarget[] = [];
  outcomes.forEach((outcome, i) => {
    if (outcome === 'updated') report.ratcheted++;
    else if (outcome === 'stale') again.push({ ...decided[i].target, read: undefined });
  });
  return again;
}

/** The whole position closed at the level; a liquidation is marked and announced as one. */
function settleWrite({ target, read, decision: { trigger } }: Decided<Settle>, fundingUsd: number, now: number): CloseWrite {
  const settled = computeClose(read.position, trigger.price, 100, fundingUsd, now, trigger.reason);
  const liquidation = trigger.reason === CLOSE_REASONS.liquidation;
  if (liquidation) settled.closed.liquidated = true;
  return { ref: target.ref, read, ...settled, clientOrderId: null, event: liquidation ? 'position.liquidated' : 'position.closed' };
}

function ratchetWrite({ target, read, decision }: Decided<Ratchet>, now: number): LevelsWrite {
  const p = read.position;
  const updated: Position = Object.assign({}, p, { v: p.v + 1, trail_hwm: decision.trail_hwm, trail_ts: decision.trail_ts });
  return { ref: target.ref, read, updated, now };
}
