/**
 * The regional-quote jobs. refresh: ask every source, record each answer (a failure keeps the
 * source's last good data), rebuild both quotes and store them with the sources that were down.
 * history: append the current quotes to the hourly history while they are fresh (a refresh also
 * writes the hour's point when the hour has none yet).
 */
import type { Clock } from '../core/clock.js';
import type { Logger } from '../core/logger.js';
import { classifySnapshot } from '../snapshots/snapshot-state.js';
import { buildArQuote, buildBrQuote, brVenueInputs, type ArQuote, type BrQuote } from './latam-quotes.js';
import { attempt, failingSources, recordAttempts, usableData, type Attempt } from './latam-sources.js';
import { hourOf, type HistoryPoint, type LatamStore, type Region } from './latam-store.js';
import type { BookTop, UsdBrlRate } from './providers/brl-formats.js';
import type { CriptoyaQuote, ReferenceDollars } from './providers/criptoya-format.js';
import { BTC_VOLUME, USDT_VOLUME, type BrlPair, type LatamProviders } from './providers/latam-providers.js';

export const LATAM_EVERY_MS = 60_000;
export const LATAM_HISTORY_EVERY_MS = 3_600_000;
/** A quote not rebuilt for three refreshes is stale even when no source reported a failure. */
export const LATAM_MAX_AGE_MS = 3 * LATAM_EVERY_MS;

export const AR_SOURCES = ['criptoya-usdt-ars', 'criptoya-dolar'] as const;
export const BR_SOURCES = ['mercado-bitcoin', 'foxbit', 'criptoya-brl', 'usdbrl'] as const;

export interface LatamRefresherDeps {
  store: LatamStore;
  providers: LatamProviders;
  /** BTC/USD from the service's own feed (the aggregated BTCUSDT price), null when there is none. */
  btcUsd(): Promise<number | null>;
  clock: Clock;
  logger: Logger;
}

export interface RegionOutcome {
  n: number;
  sourcesDown: string[];
  /** An input of the quote that does not exist yet (the feed's BTC price right after a cold start). */
  missing?: string;
}

export class LatamRefresher {
  constructor(private readonly deps: LatamRefresherDeps) {}

  async refresh(): Promise<Record<Region, RegionOutcome>> {
    const [ar, br] = await Promise.all([this.refreshAr(), this.refreshBr()]);
    // the hour's point from the first fresh quote in it: hist is not empty for up to an hour after a start
    await this.recordHistory({ onlyIfHourEmpty: true });
    return { ar, br };
  }

  async refreshAr(): Promise<RegionOutcome> {
    const { criptoya } = this.deps.providers;
    const [quotes, dolar] = await Promise.all([
      attempt(() => criptoya.quotes('usdt', 'ars', USDT_VOLUME)),
      attempt(() => criptoya.dolar()),
    ]);
    return this.rebuild('ar', AR_SOURCES, { 'criptoya-usdt-ars': quotes, 'criptoya-dolar': dolar }, (book, now) =>
      buildArQuote(usableData<CriptoyaQuote[]>(book, 'criptoya-usdt-ars', now), usableData<ReferenceDollars>(book, 'criptoya-dolar', now)),
    );
  }

  async refreshBr(): Promise<RegionOutcome> {
    const { providers, clock } = this.deps;
    const [mb, fox, cy, usd, btcUsd] = await Promise.all([
      attempt(() => providers.mercadoBitcoin.tickers()),
      attempt(() => providers.foxbit.tickers()),
      attempt(async () => {
        const [btc, usdt] = await Promise.all([
          providers.criptoya.quotes('btc', 'brl', BTC_VOLUME),
          providers.criptoya.quotes('usdt', 'brl', USDT_VOLUME),
        ]);
        return { btc, usdt };
      }),
      attempt(() => providers.usdBrl.rate(clock.now())),
      this.deps.btcUsd().catch(() => null),
    ]);
    const outcome = await this.rebuild(
      'br',
      BR_SOURCES,
      { 'mercado-bitcoin': mb, foxbit: fox, 'criptoya-brl': cy, usdbrl: usd },
      (book, now) => {
        const venues = brVenueInputs(
          {
            'mercado-bitcoin': usableData<BrlPair>(book, 'mercado-bitcoin', now),
            foxbit: usableData<{ btc?: BookTop; usdt?: BookTop }>(book, 'foxbit', now),
          },
          usableData<{ btc: CriptoyaQuote[]; usdt: CriptoyaQuote[] }>(book, 'criptoya-brl', now),
        );
        return buildBrQuote(venues, btcUsd, usableData<UsdBrlRate>(book, 'usdbrl', now));
      },
    );
    return btcUsd === null ? { ...outcome, missing: 'BTCUSDT price' } : outcome;
  }

  private async rebuild<Q extends { n: number }>(
    region: Region,
    sources: readonly string[],
    attempts: Record<string, Attempt>,
    build: (book: Awaited<ReturnType<LatamStore['readSources']>>, now: number) => Q,
  ): Promise<RegionOutcome> {
    const { store, clock, logger } = this.deps;
    const now = clock.now();
    const book = recordAttempts(await store.readSources(region), attempts, now);
    await store.saveSources(region, book);
    const sourcesDown = failingSources(book, sources);
    if (sourcesDown.length > 0)
      logger.warn(
        { region, sourcesDown, errors: sourcesDown.map((s) => book[s].error) },
        'regional quote sources down; their last answers are used',
      );
    const quote = build(book, now);
    if (quote.n === 0) {
      // nothing to show: the last stored quote stays, served as stale
      await store.saveQuoteFailure(region, new Error(`no venue quotes (${sourcesDown.join(', ') || 'empty answers'})`), now);
    } else {
      await store.saveQuote(region, { quote, sourcesDown }, now);
    }
    return { n: quote.n, sourcesDown };
  }

  /**
   * Appends the hour's point of each region whose quote is fresh. A Brazilian quote built before the
   * feed had a BTC/USD price (the first minutes after a start) has no agio: it is left out rather
   * than kept for the hour with btcUsd null.
   */
  async recordHistory(options: { onlyIfHourEmpty?: boolean } = {}): Promise<Record<Region, boolean>> {
    const now = this.deps.clock.now();
    const ar = await this.historyPoint<ArQuote>('ar', now, options, (q) => ({
      mid: q.mid,
      ask: q.bestBuy?.ask ?? null,
      bid: q.bestSell?.bid ?? null,
      blue: q.dolar?.blue?.ask ?? null,
      official: q.dolar?.official?.ask ?? null,
    }));
    const br = await this.historyPoint<BrQuote>('br', now, options, (q) =>
      q.btcUsd === null
        ? null
        : { btc: q.btcMid, btcMid: q.btcMid, usdtMid: q.usdtMid, usdbrl: q.usdbrl, btcUsd: q.btcUsd, agioMid: q.agioMid },
    );
    return { ar, br };
  }

  /** `fields`: the point's numbers, or null when the quote is not fit for the history. */
  private async historyPoint<Q>(
    region: Region,
    now: number,
    options: { onlyIfHourEmpty?: boolean },
    fields: (quote: Q) => Record<string, number | null> | null,
  ): Promise<boolean> {
    const { store } = this.deps;
    if (options.onlyIfHourEmpty && (await store.hasHistoryPoint(region, hourOf(now)))) return false;
    const snapshot = await store.readQuote<Q>(region);
    const state = classifySnapshot(snapshot, now, LATAM_MAX_AGE_MS);
    if (state.kind !== 'fresh' || state.data.sourcesDown.length > 0) return false;
    const numbers = fields(state.data.quote);
    if (numbers === null) return false;
    const point: HistoryPoint = { t: hourOf(now), ...numbers };
    await store.appendHistory(region, point, now);
    return true;
  }
}
