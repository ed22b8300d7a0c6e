/**
 * The macro refresh jobs: fetch from the provider, store the good answer, or record the failure and
 * keep the last good one. Each resource succeeds or fails on its own.
 */
import type { Clock } from '../core/clock.js';
import type { Logger } from '../core/logger.js';
import { keys } from '../redis/keys.js';
import { CATEGORIES_REFRESH_MS, MACRO_JOBS, MACRO_RESOURCES, type MacroJob } from './macro-resources.js';
import type { MacroProviders } from './providers/macro-providers.js';
import type { SnapshotStore } from '../snapshots/snapshot-store.js';

export type RefreshOutcome = Record<string, 'ok' | 'skipped' | string>;

export interface MacroRefresherDeps {
  store: SnapshotStore;
  providers: MacroProviders;
  clock: Clock;
  logger: Logger;
}

export class MacroRefresher {
  constructor(private readonly deps: MacroRefresherDeps) {}

  /** Runs one job; throws when every resource of the job failed (so the queue shows a failed job). */
  async run(job: MacroJob): Promise<RefreshOutcome> {
    const outcome = await this.runJob(job);
    const results = Object.values(outcome).filter((r) => r !== 'skipped');
    if (results.length > 0 && results.every((r) => r !== 'ok')) throw new Error(`${job}: ${results.join('; ')}`);
    return outcome;
  }

  private async runJob(job: MacroJob): Promise<RefreshOutcome> {
    const { providers } = this.deps;
    switch (job) {
      case MACRO_JOBS.fearGreed:
        return { [MACRO_RESOURCES.fearGreed]: await this.refresh(MACRO_RESOURCES.fearGreed, () => providers.alternativeMe.fearGreed()) };
      case MACRO_JOBS.coinGecko: {
        // one after the other: CoinGecko's public API limits bursts
        const outcome: RefreshOutcome = {};
        outcome[MACRO_RESOURCES.coins] = await this.refresh(MACRO_RESOURCES.coins, () => providers.coinGecko.markets());
        outcome[MACRO_RESOURCES.global] = await this.refresh(MACRO_RESOURCES.global, () => providers.coinGecko.global());
        outcome[MACRO_RESOURCES.trending] = await this.refresh(MACRO_RESOURCES.trending, () => providers.coinGecko.trending());
        outcome[MACRO_RESOURCES.categories] = (await this.categoriesDue())
          ? await this.refresh(MACRO_RESOURCES.categories, () => providers.coinGecko.categoryIds())
          : 'skipped';
        return outcome;
      }
      case MACRO_JOBS.defiLlama:
        return { [MACRO_RESOURCES.defi]: await this.refresh(MACRO_RESOURCES.defi, () => providers.defiLlama.overview()) };
      default:
        throw new Error(`unknown macro job ${String(job)}`);
    }
  }

  private async categoriesDue(): Promise<boolean> {
    const snapshot = await this.deps.store.read<string[]>(keys.macroSnapshot(MACRO_RESOURCES.categories));
    return this.deps.clock.now() - (snapshot.fetchedAt ?? 0) >= CATEGORIES_REFRESH_MS;
  }

  private async refresh(resource: string, fetch: () => Promise<unknown>): Promise<string> {
    const key = keys.macroSnapshot(resource);
    try {
      const data = await fetch();
      await this.deps.store.saveGood(key, data, this.deps.clock.now());
      return 'ok';
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.deps.logger.warn({ resource, err: message }, 'macro refresh failed; the last good answer is kept');
      await this.deps.store.saveFailure(key, error, this.deps.clock.now());
      return message;
    }
  }
}
