/**
 * A replay's clock: runs the replayed day at its speed, sweeping each minute's candle over the
 * replay journal in order with the live sweep's own rules (shared/engine/triggers.ts through
 * SweepSettler: stops, targets, trailing stops, liquidations, settled by position-close.lua), then
 * moving the frontier past it (replay-advance.lua, compare-and-set).
 *
 * A minute is swept, then counted: a clock lost between the two leaves the frontier before that
 * minute, and the next clock sweeps it again, which changes nothing twice (a settled position is
 * gone from the journal, a ratchet is newer than the candle, and every write compares the position
 * as read). A clock lost or paused for a while finds several minutes due and sweeps each in order;
 * none is skipped. Two clocks of one replay (a stalled job taken over while its worker still runs)
 * settle a position once for the same reasons, and the frontier moves once per minute.
 */
import type { Clock } from '../../core/clock.js';
import type { FundingStore } from '../funding/funding-store.js';
import { candleWindow } from '../sweep/sweep-service.js';
import { emptyReport, SweepSettler, type SweepReport, type SweepTarget } from '../sweep/sweep-settler.js';
import type { SweepStore } from '../sweep/sweep-store.js';
import type { Candle } from '../../market/types.js';
import type { ReplayCandles } from './replay-candles.js';
import { dueAt, MINUTE_MS, minutesDue } from './replay-math.js';
import { journalRef, type ReplayState, type ReplayStore } from './replay-store.js';

/** Longest wait between two looks at the replay (a stop is noticed within it). */
const MAX_WAIT_MS = 1_000;

export interface ReplayClockDeps {
  store: ReplayStore;
  candles: ReplayCandles;
  /** For the settler's re-reads of positions that changed under it. */
  index: SweepStore;
  funding: FundingStore;
  clock: Clock;
}

export interface ReplayRunOptions {
  /** Aborted: the run returns at its next minute boundary (the worker is closing). */
  signal?: AbortSignal;
  /** Called after each minute swept and counted (the bench's measurements). */
  onMinute?: (minute: { replayId: string; minute: number; sweepMs: number; report: SweepReport }) => void;
}

export type ReplayRunOutcome = 'finished' | 'stopped' | 'aborted';

const sleep = (ms: number, signal?: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });

export class ReplayClock {
  constructor(private readonly deps: ReplayClockDeps) {}

  /** Runs the key's replay `replayId` until its day is swept, it is stopped, or the signal aborts. */
  async run(ref: { accountId: string; keyId: string; replayId: string }, options: ReplayRunOptions = {}): Promise<ReplayRunOutcome> {
    const { store, clock } = this.deps;
    let state = await store.get(ref.accountId, ref.keyId);
    if (!state || state.id !== ref.replayId) return 'stopped';
    const candles = await this.deps.candles.day(state.symbol, state.day, state);
    // the cache lapsed and no exchange answers with the day now: fail (the job is retried) rather than count minutes unswept
    if (candles.length === 0) throw new Error(`replay ${state.id}: no candles of ${state.symbol} on ${state.day} to sweep`);
    const byMinute = new Map(candles.map((c) => [c.openTime, c]));
    for (;;) {
      if (state.sweptTo >= state.endTs) return 'finished';
      if (options.signal?.aborted) return 'aborted';
      const due = minutesDue(state, clock.now());
      if (due.length === 0) {
        const wait = dueAt(state, state.sweptTo + MINUTE_MS) - clock.now();
        await sleep(Math.max(1, Math.min(wait, MAX_WAIT_MS)), options.signal);
        if (wait >= MAX_WAIT_MS) {
          state = await store.get(ref.accountId, ref.keyId);
          if (!state || state.id !== ref.replayId) return 'stopped';
        }
        continue;
      }
      for (const minute of due) {
        const started = performance.now();
        const candle = byMinute.get(minute);
        const report = candle ? await this.sweepMinute(state, candle) : emptyReport();
        const sweepMs = performance.now() - started;
        const outcome = await store.advance(state, minute, minute + MINUTE_MS);
        if (outcome.kind === 'stopped') return 'stopped';
        if (outcome.kind === 'stale') {
          // another clock counted it: carry on from where that one is
          state = { ...state, sweptTo: outcome.sweptTo };
          break;
        }
        state = { ...state, sweptTo: minute + MINUTE_MS };
        options.onMinute?.({ replayId: state.id, minute, sweepMs, report });
        if (options.signal?.aborted) return 'aborted';
      }
    }
  }

  /** The journal's open positions against one minute's candle, as the candle sweep decides and settles them. */
  async sweepMinute(state: ReplayState, candle: Candle): Promise<SweepReport> {
    const ref = journalRef(state);
    const open = await this.deps.store.journal.listOpen(ref);
    if (open.length === 0) return emptyReport();
    const minuteEnd = candle.openTime + MINUTE_MS;
    // settled at the end of its replayed minute, as the live sweep settles a candle once it closed
    const settler = new SweepSettler({
      store: this.deps.store.journal,
      index: this.deps.index,
      funding: this.deps.funding,
      clock: { now: () => minuteEnd },
    });
    const window = candleWindow({
      symbol: state.symbol,
      minute: candle.openTime,
      open: candle.open,
      high: candle.high,
      low: candle.low,
      close: candle.close,
    });
    const targets: SweepTarget[] = open.map((read) => ({
      ref,
      id: read.position.id,
      read,
      window,
      candle: true,
      fundingTo: minuteEnd - 1,
    }));
    return settler.apply(targets);
  }
}
