/**
 * How a client's change of one position or order meets the others racing for it. Within a pod the
 * changes of one position (or order) run one after another, so they never invalidate each other's
 * reads; across pods the compare-and-set scripts decide, and a change that lost is read and
 * computed again after a short random pause, a bounded number of times. One that still loses
 * answers 409 busy with Retry-After: a race lost is the client's to retry, never a 500.
 */
import { InOrderByKey } from '../core/in-order-by-key.js';
import { AppError } from '../core/errors.js';

/** What an attempt answers when the thing it changes moved since it was read (the script said stale). */
export const STALE: unique symbol = Symbol('stale');
export type Stale = typeof STALE;

/** What a client is told to wait before sending a change that lost every attempt again, seconds. */
export const BUSY_RETRY_AFTER_S = 1;

export interface ChangeGateOptions {
  /** Attempts of one change before it answers busy. */
  attempts: number;
  /** The first retry waits up to this long; each further one up to twice the one before. */
  firstPauseMs: number;
}

export const DEFAULT_CHANGE_GATE: ChangeGateOptions = { attempts: 8, firstPauseMs: 3 };

export class ChangeGate {
  private readonly inOrder = new InOrderByKey();

  constructor(private readonly options: ChangeGateOptions = DEFAULT_CHANGE_GATE) {}

  /**
   * Runs `attempt` after the changes given earlier for `key` in this process settled, and again
   * (after a random pause) while it answers STALE; 409 busy naming `what` once the attempts ran out.
   */
  run<T>(key: string, what: string, attempt: () => Promise<T | Stale>): Promise<T> {
    return this.inOrder.run(key, async () => {
      for (let n = 0; n < this.options.attempts; n++) {
        if (n > 0) await pause(Math.random() * this.options.firstPauseMs * 2 ** (n - 1));
        const result = await attempt();
        if (result !== STALE) return result;
      }
      throw new AppError('busy', `${what} kept changing under other requests; send it again in ${BUSY_RETRY_AFTER_S} s`, {
        retry_after: BUSY_RETRY_AFTER_S,
      });
    });
  }
}

/** The key of one position's or order's changes in a book. */
export const changeKey = (kind: 'position' | 'order', ref: { accountId: string; book: string }, id: string): string =>
  `${kind}|${ref.accountId}|${ref.book}|${id}`;

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
