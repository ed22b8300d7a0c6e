/** The screener as the API serves it: the last run from Redis, marked stale when the job falls behind or failed. */
import type { Clock } from '../core/clock.js';
import { AppError } from '../core/errors.js';
import { classifySnapshot } from '../snapshots/snapshot-state.js';
import type { SnapshotStore } from '../snapshots/snapshot-store.js';
import { keys } from '../redis/keys.js';
import { SCREENER_MAX_AGE_MS, type ScreenerResult } from './screener-types.js';

export interface ScreenerView extends ScreenerResult {
  updatedAt: number;
  stale: boolean;
}

export class ScreenerService {
  constructor(
    private readonly store: SnapshotStore,
    private readonly clock: Clock,
  ) {}

  /** 503 upstream_unavailable before the first run. */
  async latest(): Promise<ScreenerView> {
    const state = classifySnapshot(await this.store.read<ScreenerResult>(keys.screenerSnapshot()), this.clock.now(), SCREENER_MAX_AGE_MS);
    if (state.kind === 'none') throw new AppError('upstream_unavailable', 'the screener has not run yet; try again in a minute');
    return { ...state.data, updatedAt: state.fetchedAt, stale: state.kind === 'stale' };
  }

  /** Called by the job. */
  async save(result: ScreenerResult): Promise<void> {
    await this.store.saveGood(keys.screenerSnapshot(), result, result.computedAt);
  }

  async saveFailure(error: unknown, now: number): Promise<void> {
    await this.store.saveFailure(keys.screenerSnapshot(), error, now);
  }
}
