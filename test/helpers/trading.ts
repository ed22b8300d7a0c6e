/** Trading tests: accounts and keys through the account service, prices through the market writer, HTTP calls. */
import type { RedisClient } from '../../shared/core/redis-client.js';
import { systemClock } from '../../shared/core/clock.js';
import { configWith } from '../../shared/config.js';
import { createLogger } from '../../shared/core/logger.js';
import { MarketWriter } from '../../shared/market/market-writer.js';
import { saveUniverse } from '../../shared/market/universe-store.js';
import { storedBeforeClasses } from '../../shared/market/venue-classes.js';
import type { Venue } from '../../shared/market/types.js';
import { createAccountServices, type AccountServices } from '../../shared/paper/accounts/account-services.js';
import type { PlanId } from '../../shared/paper/plans.js';
import { getJson, useApiFixture, type ApiFixture, type JsonResponse } from './app.js';
import { waitFor } from './market-wait.js';

/** Writes aggregated prices the way the feed does: venue ticks, then the median written by the writer's flush. */
/** A MarketWriter as the feed builds one, flushed only when asked: tests write prices and candles through it. */
export function testMarketWriter(redis: RedisClient): MarketWriter {
  const config = configWith({});
  return new MarketWriter({
    redis,
    logger: createLogger(config),
    clock: systemClock,
    priceFreshMs: config.priceFreshMs,
    flushIntervalMs: 1_000_000,
    onFirstClose: async () => undefined,
  });
}

export class TestPrices {
  private readonly writer: MarketWriter;
  private readonly universe = new Set<string>();
  /** The stored universe: 24h quote volume per listed symbol (1e9 unless set). */
  private readonly listed = new Map<string, number>();
  /** Symbols whose underlying market a venue says is closed. */
  private readonly closed = new Set<string>();

  constructor(private readonly redis: RedisClient) {
    this.writer = testMarketWriter(redis);
  }

  /**
   * Sets the live price of symbols (canonical names), as every venue's last price now; adds them to the universe.
   * Answers the ticks' time.
   */
  async set(prices: Record<string, number>, venues: readonly Venue[] = ['binance', 'bybit']): Promise<number> {
    const fresh = Object.keys(prices).filter((s) => !this.universe.has(s));
    for (const s of fresh) {
      this.universe.add(s);
      this.listed.set(s, 1e9);
    }
    if (fresh.length > 0) await this.saveUniverse();
    this.writer.setUniverse(this.universe);
    // stamped in a later millisecond than anything done before the call: a tick in the millisecond a position
    // opened counts as before the open (the engine reads a tie that way), and would trigger nothing
    const calledAt = Date.now();
    while (Date.now() === calledAt) await new Promise((resolve) => setImmediate(resolve));
    const ts = Date.now();
    this.writer.recordTicks(Object.entries(prices).flatMap(([symbol, price]) => venues.map((venue) => ({ venue, symbol, price, ts }))));
    await this.writer.flush();
    return ts;
  }

  /** Sets the 24h quote volume the stored universe lists for symbols; null takes a symbol out of it (no volume data, its price stays). */
  async setVolumes(volumes: Record<string, number | null>): Promise<void> {
    for (const [symbol, volume] of Object.entries(volumes)) {
      if (volume === null) this.listed.delete(symbol);
      else this.listed.set(symbol, volume);
    }
    await this.saveUniverse();
  }

  /** Marks a symbol's underlying market closed (as Binance lists a TradFi contract on BREAK), or open again. */
  async setMarketClosed(symbol: string, closed: boolean): Promise<void> {
    if (closed) this.closed.add(symbol);
    else this.closed.delete(symbol);
    await this.saveUniverse();
  }

  private saveUniverse(): Promise<void> {
    // the classes the simulated venues' metadata gives these symbols
    const symbols = [...this.listed].map(([symbol, quoteVolume24h]) => ({
      symbol,
      assetClass: storedBeforeClasses(symbol),
      quoteVolume24h,
      venues: ['binance' as const],
      ...(this.closed.has(symbol) ? { closed: true as const } : {}),
    }));
    return saveUniverse(this.redis, { updatedAt: Date.now(), symbols });
  }
}

export interface Trader {
  apiKey: string;
  accountId: string;
  book: string;
}

let emails = 0;

/** A new account (or a new key of an existing e-mail) on a plan, optionally bound to a book. */
export async function createTrader(
  accounts: AccountServices,
  opts: { email?: string; plan?: PlanId; book?: string } = {},
): Promise<Trader> {
  const email = opts.email ?? `trader${++emails}-${Date.now()}@example.org`;
  const created = await accounts.service.createKey({ email, plan: opts.plan ?? 'business', ...(opts.book ? { book: opts.book } : {}) });
  return { apiKey: created.apiKey, accountId: created.account.id, book: opts.book ?? 'main' };
}

export function accountServices(redis: RedisClient): AccountServices {
  return createAccountServices({ redis });
}

/** Calls a bot route of v1 (bare) or v2 (envelope) with the trader's key. */
export function botCall<T = Record<string, unknown>>(
  base: string,
  trader: Trader | string | null,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
  version: 'v1' | 'v2' = 'v1',
  headers: Record<string, string> = {},
): Promise<JsonResponse<T>> {
  const key = trader === null ? undefined : typeof trader === 'string' ? trader : trader.apiKey;
  return getJson<T>(`${base}/api/bot/${version}${path}`, {
    method,
    headers: {
      ...(key !== undefined ? { 'x-api-key': key } : {}),
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...headers,
    },
    ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
  });
}

/** What a client may retry unchanged: the named 409 busy (a lost race) and 503 unavailable (Redis could not serve it yet). */
export const RETRYABLE = new Map([
  ['busy', 409],
  ['unavailable', 503],
]);

/** An answer with when its request was sent and when the answer came, ms. */
export interface TimedAnswer<T> extends JsonResponse<T> {
  sentAt: number;
  answeredAt: number;
}

/**
 * Posts to a bot route until the answer is 2xx or an error that is not retryable, sending a retryable one again unchanged
 * (with its client_order_id, as a client that retries must), handing every answer to `seen`; answers the last.
 */
export async function postUntilDone<T extends { error?: string }>(
  base: string,
  trader: Trader,
  path: string,
  body: Record<string, unknown>,
  seen: (answer: TimedAnswer<T>) => void,
): Promise<JsonResponse<T>> {
  for (;;) {
    const sentAt = Date.now();
    const answer = await botCall<T>(base, trader, 'POST', path, body);
    seen({ ...answer, sentAt, answeredAt: Date.now() });
    if (answer.status < 300 || !RETRYABLE.has(answer.body.error ?? '')) return answer;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Waits until a dry-run open of `order` is priced at `entry` (the price has reached the open path); returns that answer. */
export function waitForOpenEntry<T extends { position?: Record<string, unknown> }>(
  base: string,
  trader: Trader,
  order: Record<string, unknown>,
  entry: number,
  what: string,
  timeoutMs = 5_000,
): Promise<JsonResponse<T>> {
  return waitFor(
    async () => {
      const r = await botCall<T>(base, trader, 'POST', '/open', { ...order, dry_run: true });
      return r.body.position?.entry === entry ? r : undefined;
    },
    timeoutMs,
    what,
  );
}

export interface TradingFixture extends ApiFixture {
  readonly mod: AccountServices;
  readonly prices: TestPrices;
}

/**
 * The keyed trading stack of a describe block: a real API on a freshly emptied suite Redis (with a
 * public rate limit no test reaches), the account service, and `livePrices` set before each test.
 * Read the fields inside tests or later hooks.
 */
export function useTradingFixture(livePrices: Record<string, number>): TradingFixture {
  const fixture = useApiFixture({ PUBLIC_RATE_LIMIT: '1000000' });
  let mod: AccountServices | undefined;
  let prices: TestPrices | undefined;
  const need = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('useTradingFixture: read it inside a test or a later hook');
    return value;
  };
  before(() => {
    mod = accountServices(fixture.redis);
    prices = new TestPrices(fixture.redis);
  });
  beforeEach(() => need(prices).set(livePrices));
  return {
    get redis() {
      return fixture.redis;
    },
    get api() {
      return fixture.api;
    },
    get mod() {
      return need(mod);
    },
    get prices() {
      return need(prices);
    },
  };
}
