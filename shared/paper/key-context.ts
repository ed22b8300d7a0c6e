import type { EffectivePlan } from './plans.js';

/** Who a keyed request acts for: resolved once per request from its API key. */
export interface KeyContext {
  keyId: string;
  keyName: string;
  accountId: string;
  email: string;
  /** The book this key trades: 'main', or the book it is bound to. */
  book: string;
  /** True when the key was created bound to a book and may trade that book only. */
  bookBound: boolean;
  plan: EffectivePlan;
  /**
   * The fee venue of the key's opens (its book's own, else the account's) as the key gate read it (null: none);
   * absent when it was not read with the key, and whoever needs it reads the settings.
   */
  feeVenue?: string | null;
  /** Whether the key has a replay, as the key gate read it with this request; absent when not read. */
  replay?: boolean;
  /**
   * The simulation profile JSON of `book` as the key gate read it with this request (null: none
   * saved); absent when not read, and whoever needs it reads the book's settings.
   */
  simProfile?: string | null;
  /** The id of the request this context was resolved for (X-Request-Id); the changes it makes carry it (BookRef.reqId). */
  requestId?: string;
}
