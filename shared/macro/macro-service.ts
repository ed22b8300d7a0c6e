/**
 * The macro routes' reads: provider snapshots from Redis (fresh, or the last good answer marked
 * stale, or 503 before the first one), the calendar (computed), and one CoinGecko category's coins,
 * fetched on demand and cached, since nobody can refresh all of CoinGecko's ~600 categories.
 */
import type { Clock } from '../core/clock.js';
import { AppError } from '../core/errors.js';
import { keys } from '../redis/keys.js';
import {
  eventsOfYear,
  scheduleGaps,
  upcomingEvents,
  UPCOMING_WINDOW_DAYS,
  type CalendarEvent,
  type ScheduleGap,
} from './calendar/calendar-events.js';
import { FALLBACK_CATEGORY_IDS } from './coin-categories.js';
import { CATEGORY_FRESH_MS, CATEGORY_KEEP_MS, categoryResource, MACRO_RESOURCES, MAX_AGE_MS } from './macro-resources.js';
import type { CoinGeckoClient } from './providers/macro-providers.js';
import type { CoinRow, GlobalStats, Trending } from './providers/coingecko-format.js';
import type { DefiOverview } from './providers/defillama-format.js';
import type { FearGreedPoint } from './providers/fear-greed-format.js';
import { classifySnapshot, type SnapshotState } from '../snapshots/snapshot-state.js';
import type { SnapshotStore } from '../snapshots/snapshot-store.js';

/** Every served snapshot says when it was fetched and whether it is stale. */
export type Served<T> = T & { updatedAt: number; stale: boolean };

export interface FearGreedView {
  value: number;
  classification: string;
  ts: number;
  /** Newest first, today included: the original's [{v, c, ts}]. */
  history: { v: number; c: string; ts: number }[];
}

export interface CoinsView {
  category: string | null;
  count: number;
  coins: CoinRow[];
}

export interface CalendarView {
  gen: number;
  year: number | null;
  window: { from: number; to: number; days: number } | null;
  count: number;
  events: CalendarEvent[];
  /** Series whose published schedule ends inside this window (empty when none). */
  gaps: ScheduleGap[];
}

const KNOWN_CATEGORIES_TTL_MS = 60_000;

export interface MacroServiceDeps {
  /** The providers' snapshots, written by the macro job. */
  store: SnapshotStore;
  clock: Clock;
  /** Used only for categories fetched on demand. */
  coinGecko: CoinGeckoClient;
}

export class MacroService {
  private readonly inFlight = new Map<string, Promise<CoinRow[]>>();
  /** The known category ids, re-read from Redis at most once a minute (the job refreshes them every 6 h). */
  private known: { at: number; ids: ReadonlySet<string> } | undefined;

  constructor(private readonly deps: MacroServiceDeps) {}

  calendar(year?: number): CalendarView {
    const now = this.deps.clock.now();
    if (year !== undefined) {
      const events = eventsOfYear(year);
      return { gen: now, year, window: null, count: events.length, events, gaps: scheduleGaps(Date.UTC(year + 1, 0, 1)) };
    }
    const events = upcomingEvents(now);
    const to = now + UPCOMING_WINDOW_DAYS * 86_400_000;
    return {
      gen: now,
      year: null,
      window: { from: now, to, days: UPCOMING_WINDOW_DAYS },
      count: events.length,
      events,
      gaps: scheduleGaps(to),
    };
  }

  async fearGreed(): Promise<Served<FearGreedView>> {
    return this.serve<FearGreedPoint[], FearGreedView>(MACRO_RESOURCES.fearGreed, 'alternative.me', (points) => ({
      value: points[0].value,
      classification: points[0].classification,
      ts: points[0].ts,
      history: points.map((p) => ({ v: p.value, c: p.classification, ts: p.ts })),
    }));
  }

  async global(): Promise<Served<GlobalStats>> {
    return this.serve<GlobalStats, GlobalStats>(MACRO_RESOURCES.global, 'CoinGecko', (g) => g);
  }

  async trending(): Promise<Served<Trending>> {
    return this.serve<Trending, Trending>(MACRO_RESOURCES.trending, 'CoinGecko', (t) => t);
  }

  async defi(): Promise<Served<DefiOverview>> {
    return this.serve<DefiOverview, DefiOverview>(MACRO_RESOURCES.defi, 'DefiLlama', (d) => d);
  }

  /** The top coins, or one CoinGecko category's (400 unknown_category for an id CoinGecko does not have). */
  async coins(category?: string): Promise<Served<CoinsView>> {
    if (!category)
      return this.serve<CoinRow[], CoinsView>(MACRO_RESOURCES.coins, 'CoinGecko', (coins) => ({
        category: null,
        count: coins.length,
        coins,
      }));
    await this.assertKnownCategory(category);
    const key = keys.macroSnapshot(categoryResource(category));
    const now = this.deps.clock.now();
    const state = classifySnapshot(await this.deps.store.read<CoinRow[]>(key), now, CATEGORY_FRESH_MS);
    const view = (coins: CoinRow[], fetchedAt: number, stale: boolean): Served<CoinsView> => ({
      category,
      count: coins.length,
      coins,
      updatedAt: fetchedAt,
      stale,
    });
    if (state.kind === 'fresh') return view(state.data, state.fetchedAt, false);
    try {
      const coins = await this.fetchCategory(category, key);
      return view(coins, this.deps.clock.now(), false);
    } catch (error) {
      if (state.kind === 'stale') return view(state.data, state.fetchedAt, true);
      const reason = error instanceof Error ? error.message : String(error);
      throw new AppError('upstream_unavailable', `CoinGecko did not answer for category ${category}`, { category }, { reason });
    }
  }

  private async knownCategories(): Promise<ReadonlySet<string>> {
    const now = this.deps.clock.now();
    if (this.known && now - this.known.at < KNOWN_CATEGORIES_TTL_MS) return this.known.ids;
    const stored = await this.deps.store.read<string[]>(keys.macroSnapshot(MACRO_RESOURCES.categories));
    const ids = new Set(stored.data && stored.data.length > 0 ? stored.data : FALLBACK_CATEGORY_IDS);
    // the built-in list is only a stand-in: look again soon for the real one
    this.known = stored.data && stored.data.length > 0 ? { at: now, ids } : undefined;
    return ids;
  }

  private async assertKnownCategory(category: string): Promise<void> {
    if (!(await this.knownCategories()).has(category)) {
      throw new AppError('unknown_category', `unknown category: ${category} (CoinGecko category ids, e.g. layer-1)`, {
        param: 'cat',
        cat: category,
      });
    }
  }

  /** One fetch per category at a time in this process; the answer is cached in Redis for every pod. */
  private fetchCategory(category: string, key: string): Promise<CoinRow[]> {
    let pending = this.inFlight.get(category);
    if (!pending) {
      pending = (async () => {
        const coins = await this.deps.coinGecko.markets(category);
        await this.deps.store.saveGood(key, coins, this.deps.clock.now(), CATEGORY_KEEP_MS);
        return coins;
      })().finally(() => this.inFlight.delete(category));
      this.inFlight.set(category, pending);
    }
    return pending;
  }

  private async serve<S, V extends object>(resource: string, provider: string, view: (data: S) => V): Promise<Served<V>> {
    const snapshot = await this.deps.store.read<S>(keys.macroSnapshot(resource));
    const state: SnapshotState<S> = classifySnapshot(snapshot, this.deps.clock.now(), MAX_AGE_MS[resource] ?? 0);
    if (state.kind === 'none') {
      const logged = snapshot.error ? { reason: snapshot.error } : undefined;
      throw new AppError('upstream_unavailable', `no ${resource} data from ${provider} yet`, { resource }, logged);
    }
    return { ...view(state.data), updatedAt: state.fetchedAt, stale: state.kind === 'stale' };
  }
}
