/**
 * Key management on the site (POST /api/bot/key): the signed-in account's keys listed, created, renamed and revoked
 * through the AccountService the operator CLI uses, answered in the original's list shape
 * { keys: [ { k, name, book, calls, last, revoked } ], plan, plans }. `k` is the key's public id, never the key.
 */
import type { Clock } from '../core/clock.js';
import type { AccountService } from '../paper/accounts/account-service.js';
import type { Account } from '../paper/accounts/account-store.js';
import type { KeySummary } from '../paper/accounts/key-store.js';
import { limitsView, planCatalogue, type PlanLimitsView, type PlanView } from '../paper/accounts/usage-view.js';
import { effectivePlan, type PlanId } from '../paper/plans.js';
import type { SiteSession } from './sessions.js';

export interface KeyRow {
  k: string;
  name: string;
  book: string;
  calls: number;
  /** The key's last call (epoch ms), null before the first. */
  last: number | null;
  revoked: boolean;
  /** When it was revoked (epoch ms), null while active. */
  revoked_ts: number | null;
  created: number;
}

export interface KeyListBody {
  ok: true;
  email: string;
  keys: KeyRow[];
  plan: { plan: PlanId; tier: number; label: string; until: number | null; limits: PlanLimitsView };
  plans: PlanView[];
}

export interface CreatedKeyBody extends KeyListBody {
  /**
   * The new key, shown this once: `key` is the secret, `k` its public id, and `secret` its HMAC secret when one was
   * asked for (the exchange dialects' signed requests), stored sealed as the CLI's `keys create --secret` stores it.
   */
  created: { k: string; key: string; name: string; book: string; secret?: string };
}

function keyRow(key: KeySummary): KeyRow {
  return {
    k: key.id,
    name: key.name,
    book: key.book,
    calls: key.calls,
    last: key.lastCallAt,
    revoked: key.revokedAt !== null,
    revoked_ts: key.revokedAt,
    created: key.created,
  };
}

export class SiteKeyService {
  constructor(
    private readonly accounts: AccountService,
    private readonly clock: Clock,
  ) {}

  async list(session: SiteSession): Promise<KeyListBody> {
    const { account, keys } = await this.accounts.listKeys(session.email);
    return this.body(account, keys);
  }

  /** Creates a key on the session's account (409 max_keys; 400 max_books with max, bad_book, invalid_param). */
  async create(session: SiteSession, input: { name?: string; book?: string; secret?: boolean }): Promise<CreatedKeyBody> {
    const made = await this.accounts.createKey({ email: session.email, name: input.name, book: input.book, secret: input.secret === true });
    const list = await this.list(session);
    const created = { k: made.key.id, key: made.apiKey, name: made.key.name, book: made.key.book };
    return { ...list, created: made.secret === undefined ? created : { ...created, secret: made.secret } };
  }

  async rename(session: SiteSession, keyId: string, name: string): Promise<KeyListBody> {
    await this.accounts.renameKey(session.email, keyId, name);
    return this.list(session);
  }

  async revoke(session: SiteSession, keyId: string): Promise<KeyListBody> {
    await this.accounts.revokeKey(session.email, keyId);
    return this.list(session);
  }

  private body(account: Account, keys: KeySummary[]): KeyListBody {
    const plan = effectivePlan(account.plan, this.clock.now());
    return {
      ok: true,
      email: account.email,
      keys: keys.map(keyRow),
      plan: { plan: plan.limits.id, tier: plan.limits.tier, label: plan.limits.label, until: plan.until, limits: limitsView(plan.limits) },
      plans: planCatalogue(),
    };
  }
}
