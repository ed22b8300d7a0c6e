/**
 * Counts keyed calls in memory and writes them in one pipeline every FLUSH_MS: per-request usage
 * writes (four commands each) cost a trading request too much CPU under load (bench/README.md,
 * design figures). Usage is a report, not money: a pod that dies without its shutdown flush loses
 * at most FLUSH_MS of counts.
 */
import { utcDay } from './plan-terms.js';
import type { KeyStore, UsageTally } from './key-store.js';

export const USAGE_FLUSH_MS = 100;

export class UsageBatcher {
  private pending = new Map<string, UsageTally>();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: Pick<KeyStore, 'recordCalls'>,
    private readonly onError: (error: unknown) => void,
    private readonly flushMs = USAGE_FLUSH_MS,
  ) {}

  recordCall(accountId: string, keyId: string, now: number): void {
    const day = utcDay(now);
    const slot = `${accountId}|${keyId}|${day}`;
    const tally = this.pending.get(slot);
    if (tally) {
      tally.calls += 1;
      tally.last = Math.max(tally.last, now);
    } else {
      this.pending.set(slot, { accountId, keyId, day, calls: 1, last: now });
    }
    this.timer ??= setTimeout(() => void this.flush(), this.flushMs);
  }

  /** Writes what was counted so far; resolves once it (and any earlier flush) is stored. */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const tallies = [...this.pending.values()];
    this.pending = new Map();
    this.flushing = this.flushing.then(() => this.store.recordCalls(tallies)).catch(this.onError);
    return this.flushing;
  }
}
