/**
 * Settles what a window of prices triggers, through the same scripts as a manual close: each
 * position as read is decided in TypeScript (shared/engine/triggers.ts), settled with the same math
 * as computeClose (wholeCloseJson), and written by position-close.lua only if it is still exactly as
 * read (CAS on its JSON digest), so a sweep racing a manual close, another sweep or a retried job
 * settles it once. A position that changed meanwhile is read again and decided again. Trailing-stop
 * ratchets go through position-sltp.lua the same way. Reads and scripts go in pipelines (batches.ts).
 */
import type { Clock } from '../../core/clock.js';
import type { FundingRecord } from '../../engine/funding.js';
import type { Side } from '../../engine/side.js';
import type { TrailMove } from '../../engine/trailing.js';
import { CLOSE_REASONS, decide, type PriceWindow, type Trigger } from '../../engine/triggers.js';
import type { FundingStore } from '../funding/funding-store.js';
import { wholeCloseJson } from '../positions/close-service.js';
import { fundingFrom, MAX_ATTEMPTS } from '../positions/position-deps.js';
import type { CloseOutcome, CloseWrite, LevelsOutcome, LevelsWrite } from '../positions/position-calls.js';
import type { PositionStore } from '../positions/position-store.js';
import type { BookRef, Position, StoredPosition } from '../positions/position-types.js';
import type { HintTarget } from '../positions/trigger-hints.js';
import { mayBeStoring } from '../timed-ids.js';
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
  /** Index members dropped because their position is not open (and is not opening right now). */
  dropped: number;
}

export const emptyReport = (): SweepReport => ({ checked: 0, settled: 0, liquidated: 0, ratcheted: 0, dropped: 0 });

export function addReports(a: SweepReport, b: SweepReport): SweepReport {
  return {
    checked: a.checked + b.checked,
    settled: a.settled + b.settled,
    liquidated: a.liquidated + b.liquidated,
    ratcheted: a.ratcheted + b.ratcheted,
    dropped: a.dropped + b.dropped,
  };
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
type Ratchet = TrailMove;

/** A batch decided: the writes, and what counting each one's outcome needs. */
interface BatchWrites {
  closes: CloseWrite[];
  closing: { target: SweepTarget; liquidation: boolean }[];
  ratchets: LevelsWrite[];
  ratcheting: SweepTarget[];
}

export class SweepSettler {
  constructor(private readonly deps: SettlerDeps) {}

  /**
   * Decides and applies every target, in batches (read, decide, settle) so little is held at once;
   * targets whose position changed meanwhile are read and decided again. `reqId`: the job (or pass) the changes are
   * made for, on their outbox entries (BookRef.reqId); none for a replay's journal, which is never relayed.
   */
  async apply(targets: readonly SweepTarget[], reqId?: string): Promise<SweepReport> {
    const report = { ...emptyReport(), checked: targets.length };
    const funding = new FundingCache(this.deps.funding);
    let pending: readonly SweepTarget[] = targets;
    for (let attempt = 0; attempt < MAX_ATTEMPTS && pending.length > 0; attempt++) {
      pending = await inBatches(pending, (batch) => this.applyBatch(batch, report, funding, attempt === 0, reqId));
    }
    return report;
  }

  /** One batch: answers the targets to decide again. */
  private async applyBatch(
    batch: readonly SweepTarget[],
    report: SweepReport,
    funding: FundingCache,
    first: boolean,
    reqId: string | undefined,
  ): Promise<SweepTarget[]> {
    // the positions as read are not held while the scripts run (less for the young generation to copy)
    const sent = this.send(await this.prepare(batch, report, funding, first, reqId));
    const [closed, ratcheted] = await sent.outcomes;
    return [...tally(report, sent.closing, closed), ...tallyRatchets(report, sent.ratcheting, ratcheted)];
  }

  /** Reads and decides a batch, drops the members of positions gone, and builds the writes. */
  private async prepare(
    batch: readonly SweepTarget[],
    report: SweepReport,
    funding: FundingCache,
    first: boolean,
    reqId: string | undefined,
  ): Promise<BatchWrites> {
    const reads = await this.read(batch);
    const closes: Decided<Settle>[] = [];
    const ratchets: Decided<Ratchet>[] = [];
    const gone: SweepTarget[] = [];
    const idle: (HintTarget & { raw: string })[] = [];
    for (let i = 0; i < batch.length; i++) {
      const target = batch[i];
      const read = reads[i];
      if (!read) {
        gone.push(target);
        continue;
      }
      // a member naming a position of another symbol or side is no hint for this window
      if (target.hint && (read.position.symbol !== target.hint.symbol || read.position.side !== target.hint.side)) continue;
      const decision = decide(read.position, target.window, target.candle);
      if (decision.kind === 'settle') closes.push({ target, read, decision });
      else if (decision.kind === 'ratchet') ratchets.push({ target, read, decision });
      else if (target.hint) idle.push({ ref: target.ref, ...read });
    }
    // awaited apart: batches run side by side, and `+= await` would add to a count read before the wait
    const [dropped] = await Promise.all([first ? this.dropGone(gone) : 0, this.deps.index.align(idle)]);
    report.dropped += dropped;
    const now = this.deps.clock.now();
    const owedTo = (d: Decided<Settle>): number => Math.min(now, d.target.fundingTo);
    const records = await funding.recordsFor(closes.map((d) => ({ p: d.read.position, to: owedTo(d) })));
    return {
      closes: closes.map((d) => settleWrite(d, owedFunding(d.read.position, owedTo(d), records), now, reqId)),
      closing: closes.map((d) => ({ target: d.target, liquidation: d.decision.trigger.reason === CLOSE_REASONS.liquidation })),
      ratchets: ratchets.map((d) => ratchetWrite(d, now, reqId)),
      ratcheting: ratchets.map((d) => d.target),
    };
  }

  /** Sends a batch's writes; keeps only what counting their outcomes needs. */
  private send(writes: BatchWrites): {
    outcomes: Promise<[CloseOutcome[], LevelsOutcome[]]>;
    closing: BatchWrites['closing'];
    ratcheting: SweepTarget[];
  } {
    const outcomes = Promise.all([this.deps.store.closeMany(writes.closes), this.deps.store.sltpMany(writes.ratchets)]);
    return { outcomes, closing: writes.closing, ratcheting: writes.ratcheting };
  }

  private read(targets: readonly SweepTarget[]): Promise<(StoredPosition | null)[]> {
    if (targets.every((t) => t.read)) return Promise.resolve(targets.map((t) => t.read ?? null));
    return this.deps.index.positions(targets);
  }

  /**
   * Drops the index members of positions that are not open, except those of a position that may be
   * opening right now (an open writes its entries just before its script).
   */
  private async dropGone(gone: readonly SweepTarget[]): Promise<number> {
    const now = this.deps.clock.now();
    const stale = gone.flatMap((t) =>
      t.hint && !mayBeStoring('bp', t.id, now) ? [{ ref: t.ref, position: { id: t.id, ...t.hint } }] : [],
    );
    await this.deps.index.drop(stale);
    return stale.length;
  }
}

/**
 * Funding records for settlements. A symbol's records are read once per sweep for the span its
 * first batch needs, and again only when a later batch needs a wider one, never once per position.
 */
class FundingCache {
  /** Spans only ever widen, so a span found here covers every need it was read or widened for. */
  private readonly spans = new Map<string, { from: number; to: number; records: Promise<FundingRecord[]> }>();

  constructor(private readonly funding: FundingStore) {}

  /** Each symbol's records covering what its positions owe up to their times. */
  async recordsFor(items: readonly { p: Position; to: number }[]): Promise<Map<string, FundingRecord[]>> {
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
    const out = new Map<string, FundingRecord[]>();
    for (const symbol of needed.keys()) out.set(symbol, await (this.spans.get(symbol)?.records ?? []));
    return out;
  }
}

/** What a position owes up to `to`: its carry plus the funding times after funding_from_ts. */
function owedFunding(p: Position, to: number, records: ReadonlyMap<string, readonly FundingRecord[]>): number {
  const held = records.get(p.symbol) ?? [];
  return fundingFrom(
    p,
    held.filter((r) => r.time > p.funding_from_ts && r.time <= to),
  );
}

/** Counts what settled; answers the targets to decide again (their position changed since it was read). */
function tally(report: SweepReport, closing: BatchWrites['closing'], outcomes: readonly CloseOutcome[]): SweepTarget[] {
  const again: SweepTarget[] = [];
  outcomes.forEach((outcome, i) => {
    if (outcome.kind === 'closed') {
      report.settled++;
      if (closing[i].liquidation) report.liquidated++;
    } else if (outcome.kind === 'stale') again.push({ ...closing[i].target, read: undefined });
    // already closed or gone: another sweep or a manual close settled it first
  });
  return again;
}

function tallyRatchets(report: SweepReport, ratcheting: readonly SweepTarget[], outcomes: readonly LevelsOutcome[]): SweepTarget[] {
  const again: SweepTarget[] = [];
  outcomes.forEach((outcome, i) => {
    if (outcome === 'updated') report.ratcheted++;
    else if (outcome === 'stale') again.push({ ...ratcheting[i], read: undefined });
  });
  return again;
}

/** The target's book, named with the request id its changes carry (none: as it is). */
const refFor = (target: SweepTarget, reqId: string | undefined): BookRef => (reqId === undefined ? target.ref : { ...target.ref, reqId });

/** The whole position closed at the level; a liquidation is marked and announced as one. */
function settleWrite(
  { target, read, decision: { trigger } }: Decided<Settle>,
  fundingUsd: number,
  now: number,
  reqId: string | undefined,
): CloseWrite {
  const liquidation = trigger.reason === CLOSE_REASONS.liquidation;
  const { json, cents, facts } = wholeCloseJson(read, trigger.price, fundingUsd, now, trigger.reason, liquidation);
  return {
    ref: refFor(target, reqId),
    read,
    closed: { id: read.position.id, closed_ts: now, json, facts },
    remaining: null,
    cents,
    clientOrderId: null,
    event: liquidation ? 'position.liquidated' : 'position.closed',
  };
}

function ratchetWrite({ target, read, decision }: Decided<Ratchet>, now: number, reqId: string | undefined): LevelsWrite {
  const p = read.position;
  const updated: Position = Object.assign({}, p, {
    v: p.v + 1,
    trail_hwm: decision.trail_hwm,
    trail_ts: decision.trail_ts,
    trail_prev_hwm: decision.trail_prev_hwm,
    trail_prev_ts: decision.trail_prev_ts,
  });
  return { ref: refFor(target, reqId), read, updated, now };
}
