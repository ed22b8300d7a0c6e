/**
 * The work of the derivatives refresh jobs: fetch funding rates, open interest and long/short
 * account ratios from Binance, Bybit and OKX, merge them per pair and store the snapshots. An
 * exchange that fails is left out of that round; a round where all fail throws (the job retries).
 */
import type { Clock } from '../core/clock.js';
import type { Logger } from '../core/logger.js';
import { baseOf } from '../market/canonical-symbol.js';
import { getJson, withQuery, type HttpSettings } from '../http/http-json.js';
import type {
  DerivativesStore,
  DerivativeVenue,
  FundingRow,
  LongShortRow,
  OpenInterestRow,
  AccountRatioView,
} from './derivatives-store.js';
import { MAJOR_PAIRS } from '../market/majors.js';
import {
  parseBinanceAccountRatio,
  parseBinanceFundingInfo,
  parseBinanceOpenInterest,
  parseBinancePremiumIndex,
  parseBybitAccountRatio,
  parseBybitTickers,
  parseOkxFundingRates,
  parseOkxOpenInterest,
  type AccountRatio,
  type FundingQuote,
  withBinanceIntervals,
} from './rest/derivative-formats.js';

export interface DerivativesRefresherOptions {
  store: DerivativesStore;
  /** REST origins of the three exchanges. */
  rest: Record<DerivativeVenue, string>;
  http: HttpSettings;
  clock: Clock;
  logger: Logger;
  /** The universe, largest first (empty before the feed has built it). */
  universe: () => Promise<string[]>;
  /** How many pairs funding and open interest cover. */
  pairs: number;
}

/** Binance asks one request per symbol for open interest: this many at once. */
const OI_CONCURRENCY = 8;

const round = (n: number, dp: number): number => Math.round(n * 10 ** dp) / 10 ** dp;

async function settle<T>(name: string, logger: Logger, task: Promise<T>): Promise<T | undefined> {
  try {
    return await task;
  } catch (error) {
    logger.warn({ err: error, source: name }, 'derivatives source failed');
    return undefined;
  }
}

async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

function ratioView(r: AccountRatio): AccountRatioView {
  const sum = r.long + r.short;
  const long = sum > 0 ? r.long / sum : 0.5;
  return {
    longPct: round(long * 100, 2),
    shortPct: round((1 - long) * 100, 2),
    ratio: long < 1 ? round(long / (1 - long), 4) : 0,
    ts: r.ts,
  };
}

export class DerivativesRefresher {
  constructor(private readonly o: DerivativesRefresherOptions) {}

  private get(venue: DerivativeVenue, path: string, query: Record<string, string | number | undefined> = {}): Promise<unknown> {
    return getJson(withQuery(this.o.rest[venue], path, query), this.o.http);
  }

  /** Binance's premium index and Bybit's tickers (both jobs read them) and one OKX document; each undefined when it failed. */
  private readExchanges<T>(okxPath: string, okxQuery: Record<string, string>, parseOkx: (body: unknown) => T) {
    const { logger } = this.o;
    return Promise.all([
      settle('binance premiumIndex', logger, this.get('binance', '/fapi/v1/premiumIndex').then(parseBinancePremiumIndex)),
      settle('bybit tickers', logger, this.get('bybit', '/v5/market/tickers', { category: 'linear' }).then(parseBybitTickers)),
      settle(`okx ${okxPath}`, logger, this.get('okx', okxPath, okxQuery).then(parseOkx)),
    ]);
  }

  /** The pairs to cover: the universe's largest, else whatever the exchanges list. */
  private async pairList(found: Iterable<string>): Promise<string[]> {
    const universe = await this.o.universe();
    const list = universe.length > 0 ? universe : [...new Set(found)];
    return list.slice(0, this.o.pairs);
  }

  async refreshFunding(): Promise<number> {
    const [[binance, bybit, okx], binanceHours] = await Promise.all([
      this.readExchanges('/api/v5/public/funding-rate', { instId: 'ANY' }, parseOkxFundingRates),
      settle('binance fundingInfo', this.o.logger, this.get('binance', '/fapi/v1/fundingInfo').then(parseBinanceFundingInfo)),
    ]);
    if (!binance && !bybit && !okx) throw new Error('funding: every exchange failed');
    const sources: [DerivativeVenue, Map<string, FundingQuote> | undefined][] = [
      ['binance', binance && withBinanceIntervals(binance.funding, binanceHours)],
      ['bybit', bybit?.funding],
      ['okx', okx],
    ];
    const pairs = await this.pairList(sources.flatMap(([, m]) => [...(m?.keys() ?? [])]));
    const rows: FundingRow[] = [];
    for (const pair of pairs) {
      const exchanges: FundingRow['exchanges'] = {};
      for (const [venue, map] of sources) {
        const quote = map?.get(pair);
        if (quote) exchanges[venue] = quote;
      }
      const quotes = Object.values(exchanges);
      if (quotes.length === 0) continue;
      const rate = quotes.reduce((s, q) => s + q.rate, 0) / quotes.length;
      const times = quotes.map((q) => q.nextFundingTime).filter((t): t is number => t !== null);
      const interval = quotes.find((q) => q.intervalHours)?.intervalHours ?? null;
      rows.push({
        symbol: baseOf(pair),
        pair,
        rate: round(rate, 8),
        ratePct: round(rate * 100, 6),
        nextFundingTime: times.length > 0 ? Math.min(...times) : null,
        intervalHours: interval,
        exchanges,
      });
    }
    await this.o.store.saveFunding({ updatedAt: this.o.clock.now(), count: rows.length, pairs: rows });
    return rows.length;
  }

  async refreshOpenInterest(): Promise<number> {
    const [premium, bybit, okx] = await this.readExchanges('/api/v5/public/open-interest', { instType: 'SWAP' }, parseOkxOpenInterest);
    const pairs = await this.pairList([...(premium?.funding.keys() ?? []), ...(bybit?.oiUsd.keys() ?? []), ...(okx?.keys() ?? [])]);
    // Binance answers open interest in coin, one symbol per request: valued at its mark price
    const binance = new Map<string, number>();
    if (premium) {
      const listed = pairs.filter((p) => premium.mark.has(p));
      const coins = await mapLimit(listed, OI_CONCURRENCY, (pair) =>
        settle(
          `binance openInterest ${pair}`,
          this.o.logger,
          this.get('binance', '/fapi/v1/openInterest', { symbol: pair }).then(parseBinanceOpenInterest),
        ),
      );
      listed.forEach((pair, i) => {
        const coin = coins[i];
        if (coin !== undefined && coin > 0) binance.set(pair, coin * (premium.mark.get(pair) ?? 0));
      });
    }
    if (binance.size === 0 && !bybit && !okx) throw new Error('open interest: every exchange failed');
    const sources: [DerivativeVenue, Map<string, number> | undefined][] = [
      ['binance', binance],
      ['bybit', bybit?.oiUsd],
      ['okx', okx],
    ];
    const rows: OpenInterestRow[] = [];
    for (const pair of pairs) {
      const exchanges: OpenInterestRow['exchanges'] = {};
      for (const [venue, map] of sources) {
        const usd = map?.get(pair);
        if (usd !== undefined) exchanges[venue] = round(usd, 2);
      }
      const values = Object.values(exchanges);
      if (values.length === 0) continue;
      rows.push({
        symbol: baseOf(pair),
        pair,
        oiUsd: round(
          values.reduce((s, v) => s + v, 0),
          2,
        ),
        exchanges,
      });
    }
    rows.sort((a, b) => b.oiUsd - a.oiUsd);
    const totalUsd = round(
      rows.reduce((s, r) => s + r.oiUsd, 0),
      2,
    );
    await this.o.store.saveOpenInterest({ updatedAt: this.o.clock.now(), count: rows.length, totalUsd, pairs: rows });
    return rows.length;
  }

  async refreshLongShort(): Promise<number> {
    const { logger } = this.o;
    const rows: LongShortRow[] = [];
    let answered = 0;
    for (const pair of MAJOR_PAIRS) {
      const [binance, bybit] = await Promise.all([
        settle(
          `binance account ratio ${pair}`,
          logger,
          this.get('binance', '/futures/data/globalLongShortAccountRatio', { symbol: pair, period: '5m', limit: 1 }).then(
            parseBinanceAccountRatio,
          ),
        ),
        settle(
          `bybit account ratio ${pair}`,
          logger,
          this.get('bybit', '/v5/market/account-ratio', { category: 'linear', symbol: pair, period: '5min', limit: 1 }).then(
            parseBybitAccountRatio,
          ),
        ),
      ]);
      const exchanges: LongShortRow['exchanges'] = {};
      if (binance) exchanges.binance = ratioView(binance);
      if (bybit) exchanges.bybit = ratioView(bybit);
      const views = Object.values(exchanges);
      if (views.length === 0) continue;
      answered++;
      // a plain mean of the exchanges' long shares: account counts per exchange are not published
      const long = views.reduce((s, v) => s + v.longPct, 0) / views.length / 100;
      rows.push({
        symbol: baseOf(pair),
        pair,
        ...ratioView({ long, short: 1 - long, ts: Math.max(...views.map((v) => v.ts)) }),
        exchanges,
      });
    }
    if (answered === 0) throw new Error('long/short: every exchange failed');
    await this.o.store.saveLongShort({ updatedAt: this.o.clock.now(), count: rows.length, pairs: rows });
    return rows.length;
  }
}
