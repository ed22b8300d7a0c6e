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
}

/** Turns a request's API key into its context, or throws 401 missing_api_key / bad_api_key / revoked_key. */
export type Authenticate = (req: import('express').Request, res: import('express').Response) => Promise<KeyContext>;
