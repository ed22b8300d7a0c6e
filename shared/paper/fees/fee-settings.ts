/**
 * The fee venue: which exchange schedule crypto opens are stamped with. The account's setting (field
 * `fee_venue`) is what its unbound keys set and read; a book-bound key sets its own book's (field
 * `fee_venue:<book>`, '' for none), and a book without one follows the account's.
 */
import type { RedisClient } from '../../core/redis-client.js';
import { AppError } from '../../core/errors.js';
import { CLASS_TAKER_PCT, FEE_VENUES, findFeeVenue, venueEffectivePct, type FeeVenue } from '../../engine/fees.js';
import { keys } from '../../redis/keys.js';
import type { KeyContext } from '../key-context.js';

/** The venue named by a request, or 400 unknown_fee_venue (matching is case-insensitive). */
export function parseFeeVenue(name: string): FeeVenue {
  const venue = findFeeVenue(name.trim().toLowerCase());
  if (!venue) {
    throw new AppError('unknown_fee_venue', `unknown fee venue: ${name.slice(0, 40)}`, { venues: FEE_VENUES.map((v) => v.venue) });
  }
  return venue;
}

export interface FeesView {
  fee_venue: string | null;
  venues: {
    venue: string;
    taker_pct: number;
    maker_pct: number;
    referral_discount_pct: number;
    effective_taker_pct: number;
    code: string | null;
    signup_url: null;
    source: string;
  }[];
  defaults: typeof CLASS_TAKER_PCT;
  applies_to: 'crypto';
  note: string;
}

/** Who a fee setting is read or written for: a keyed request's account and book. */
export type FeeScope = Pick<KeyContext, 'accountId' | 'book' | 'bookBound'>;

const ACCOUNT_FIELD = 'fee_venue';
/** The hash field of a book's own venue (book names hold no ':'); read by key-gate.lua too. */
const bookField = (book: string): string => `fee_venue:${book}`;

export class FeeSettings {
  constructor(private readonly redis: RedisClient) {}

  /** The venue the scope's opens are stamped with: its book's own when it set one, else the account's. */
  async venue(scope: FeeScope): Promise<FeeVenue | undefined> {
    const [account, own] = await this.redis.hmget(keys.paperSettings(scope.accountId), ACCOUNT_FIELD, bookField(scope.book));
    const name = scope.bookBound && own !== null ? own : account;
    return name ? findFeeVenue(name) : undefined;
  }

  /** The venue of a keyed request: as its key gate read it, else from the settings. */
  async venueFor(ctx: FeeScope & Pick<KeyContext, 'feeVenue'>): Promise<FeeVenue | undefined> {
    if (ctx.feeVenue === undefined) return this.venue(ctx);
    return ctx.feeVenue === null ? undefined : findFeeVenue(ctx.feeVenue);
  }

  /**
   * Sets (or with null or an empty name, as the original's clients send to reset, clears) the
   * venue: the account's for an unbound key, only its book's for a book-bound key (cleared: the
   * book pays the class rates, whatever the account's). Open positions keep the rate they were stamped with.
   */
  async setVenue(scope: FeeScope, name: string | null): Promise<string | null> {
    const key = keys.paperSettings(scope.accountId);
    const venue = name === null || name.trim() === '' ? null : parseFeeVenue(name).venue;
    if (scope.bookBound) await this.redis.hset(key, bookField(scope.book), venue ?? '');
    else if (venue === null) await this.redis.hdel(key, ACCOUNT_FIELD);
    else await this.redis.hset(key, ACCOUNT_FIELD, venue);
    return venue;
  }

  async view(scope: FeeScope): Promise<FeesView> {
    const current = await this.venue(scope);
    return {
      fee_venue: current?.venue ?? null,
      venues: FEE_VENUES.map((v) => ({
        venue: v.venue,
        taker_pct: v.takerPct,
        maker_pct: v.makerPct,
        referral_discount_pct: v.referralDiscountPct,
        effective_taker_pct: venueEffectivePct(v),
        code: v.code,
        signup_url: null,
        source: "the exchange's published base tier",
      })),
      defaults: CLASS_TAKER_PCT,
      applies_to: 'crypto',
      note:
        'A venue applies to crypto perpetuals only; other classes keep their class rate. Above about 180x the rate is lowered ' +
        'so a round trip stays at or below 20% of the margin. Open positions keep the rate they were filled with.',
    };
  }
}
