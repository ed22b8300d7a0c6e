/** Accounts, keys, plans and usage: what the operator CLI, the demo and the /usage route call. */
import type { Clock } from '../../core/clock.js';
import { AppError } from '../../core/errors.js';
import type { SecretBox } from '../../core/secret-box.js';
import type { SocketCap } from '../../push/socket-notices.js';
import type { KeyContext } from '../key-context.js';
import { effectivePlan, type PlanId, type PlanSource } from '../plans.js';
import { checkBookName, checkKeyName, normalizeEmail, printable } from './account-rules.js';
import type { Account, AccountStore } from './account-store.js';
import { apiKeyDigest, generateApiKey, isKeyId, newKeyId, randomBase62, type RandomBytes } from './api-key-format.js';
import type { BookRegistry } from './book-registry.js';
import type { KeyStore, KeySummary } from './key-store.js';
import type { PlanStore } from './plan-store.js';
import { atLeastPlanTerm, MAX_PLAN_DAYS, nextPlanTerm, type StoredPlan } from './plan-terms.js';
import { usageBody, type UsageBody } from './usage-view.js';

/** Days of plan that `keys create --plan P` gives (at least). */
export const CREATE_PLAN_DAYS = 30;

export interface CreateKeyInput {
  email: string;
  plan?: PlanId;
  /** A named book to bind the key to; omitted: the main account. */
  book?: string;
  name?: string;
  /** Give the key an HMAC secret too, for the exchange dialects' signed requests (Binance's X-MBX-APIKEY + signature). */
  secret?: boolean;
}

/** An HMAC secret's length: Binance's are 64 alphanumerics, and clients may check the shape. */
const HMAC_SECRET_CHARS = 64;

export interface SetPlanOptions {
  /** How the days are granted: paid (default) or trial, or grant (an operator gift). */
  source?: PlanSource;
}

export interface CreatedKey {
  /** The key itself: shown this once, never stored. */
  apiKey: string;
  /** Its HMAC secret when one was asked for: shown this once, stored sealed. */
  secret?: string;
  key: KeySummary;
  account: Account;
  accountCreated: boolean;
}

export interface AccountServiceDeps {
  accounts: AccountStore;
  keys: KeyStore;
  plans: PlanStore;
  books: BookRegistry;
  /** The account's WebSocket cap: a plan change holds its open streams to the new plan's. */
  sockets: SocketCap;
  clock: Clock;
  random?: RandomBytes;
  /** Seals keys' HMAC secrets (the server's secrets key); without it a key cannot be given one. */
  secrets?: SecretBox;
}

export class AccountService {
  constructor(private readonly deps: AccountServiceDeps) {}

  /** Creates a key (and the account when the e-mail is new); the plan, when given, runs at least 30 days. */
  async createKey(input: CreateKeyInput): Promise<CreatedKey> {
    const { accounts, keys, clock, random, secrets } = this.deps;
    if (input.secret && !secrets) throw new Error('this account service has no secrets key to seal an HMAC secret with');
    // Everything is checked before anything is written.
    const email = normalizeEmail(input.email);
    const book = input.book === undefined ? null : checkBookName(input.book);
    const wantedName = input.name === undefined ? undefined : checkKeyName(input.name);
    const now = clock.now();
    const { account, created: accountCreated } = await accounts.ensure(email, now);
    const plan = input.plan;
    if (plan !== undefined)
      account.plan = await this.changePlan(account.id, (current) => atLeastPlanTerm(current, plan, CREATE_PLAN_DAYS, now), now);
    const { limits } = effectivePlan(account.plan, now);
    const name = wantedName ?? `key-${(await keys.countAll(account.id)) + 1}`;
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const apiKey = generateApiKey(random);
      const keyId = newKeyId(random);
      const secret = input.secret ? randomBase62(HMAC_SECRET_CHARS, random) : undefined;
      const sealedSecret = secret === undefined ? undefined : secrets?.seal(secret, account.id, keyId);
      const outcome = await keys.create(
        account.id,
        { keyId, name, book, created: now, maxKeys: limits.maxKeys, maxBooks: limits.maxBooks, ...(sealedSecret ? { sealedSecret } : {}) },
        apiKeyDigest(apiKey),
      );
      if (outcome === 'max_keys') {
        throw new AppError('max_keys', `the ${limits.label} plan allows ${limits.maxKeys} active keys per account; revoke one first`, {
          max: limits.maxKeys,
        });
      }
      if (outcome === 'max_books') {
        throw new AppError('max_books', `the ${limits.label} plan allows ${limits.maxBooks} books besides main`, { max: limits.maxBooks });
      }
      if (outcome === 'created') {
        const key = await keys.get(account.id, keyId);
        if (!key) throw new Error(`key ${keyId} vanished right after it was created`);
        return { apiKey, key, account, accountCreated, ...(secret === undefined ? {} : { secret }) };
      }
    }
    throw new Error('could not draw an unused key id');
  }

  /** A key's HMAC secret in clear, to check a signed request with; null when the key has none. */
  async hmacSecret(accountId: string, keyId: string): Promise<string | null> {
    const sealed = await this.deps.keys.sealedSecret(accountId, keyId);
    return sealed === null || !this.deps.secrets ? null : this.deps.secrets.open(sealed, accountId, keyId);
  }

  /** Every key of the account (revoked included), oldest first; never a key itself. */
  async listKeys(email: string): Promise<{ account: Account; keys: KeySummary[] }> {
    const account = await this.requireAccount(email);
    return { account, keys: await this.deps.keys.list(account.id) };
  }

  async renameKey(email: string, keyId: string, name: string): Promise<KeySummary> {
    const wanted = checkKeyName(name);
    const id = checkKeyId(keyId);
    const account = await this.requireAccount(email);
    if (!(await this.deps.keys.rename(account.id, id, wanted))) throw noSuchKey(id);
    return this.requireKey(account.id, id);
  }

  /** Revokes a key (its open streams close, on every pod); its record and usage history stay. */
  async revokeKey(email: string, keyId: string): Promise<{ key: KeySummary; alreadyRevoked: boolean }> {
    const id = checkKeyId(keyId);
    const account = await this.requireAccount(email);
    const outcome = await this.deps.keys.revoke(account.id, id, this.deps.clock.now());
    if (outcome === 'missing') throw noSuchKey(id);
    return { key: await this.requireKey(account.id, id), alreadyRevoked: outcome === 'already_revoked' };
  }

  /**
   * Sets plan P for N days; days granted while the same paid plan runs are added to its end.
   * `options.source` says how (default paid; trial is the free month /usage counts down).
   */
  async setPlan(email: string, plan: PlanId, days: number, options: SetPlanOptions = {}): Promise<{ account: Account; plan: StoredPlan }> {
    if (!Number.isInteger(days) || days < 1 || days > MAX_PLAN_DAYS) {
      throw new AppError('invalid_param', `days: a whole number from 1 to ${MAX_PLAN_DAYS}`, { param: 'days' });
    }
    const account = await this.requireAccount(email);
    const now = this.deps.clock.now();
    const term = await this.changePlan(account.id, (current) => nextPlanTerm(current, plan, days, now, options.source), now);
    return { account: { ...account, plan: term }, plan: term };
  }

  /** The body of GET /usage for the calling key. */
  async usage(ctx: KeyContext): Promise<UsageBody> {
    const { keys, books, clock } = this.deps;
    const [days, activeKeys, namedBooks] = await Promise.all([
      keys.dailyCalls(ctx.accountId, ctx.keyId, clock.now()),
      keys.countActive(ctx.accountId),
      books.countNamedBooks(ctx.accountId),
    ]);
    return usageBody({ keyName: ctx.keyName, account: ctx.book, plan: ctx.plan, activeKeys, namedBooks, days });
  }

  /** Moves the plan term, then holds the account's open streams to the new plan's cap. */
  private async changePlan(accountId: string, next: (current: StoredPlan) => StoredPlan, now: number): Promise<StoredPlan> {
    const term = await this.deps.plans.update(accountId, next);
    // streams beyond a lower cap close now rather than at their recycling, hours later
    await this.deps.sockets.enforce(accountId, effectivePlan(term, now).limits.websocketSockets, now);
    return term;
  }

  private async requireAccount(rawEmail: string): Promise<Account> {
    const email = normalizeEmail(rawEmail);
    const account = await this.deps.accounts.findByEmail(email);
    if (!account) throw new AppError('not_found', `no account for ${email}`);
    return account;
  }

  private async requireKey(accountId: string, keyId: string): Promise<KeySummary> {
    const key = await this.deps.keys.get(accountId, keyId);
    if (!key) throw noSuchKey(keyId);
    return key;
  }
}

function checkKeyId(raw: string): string {
  if (!isKeyId(raw))
    throw new AppError('invalid_param', `id: "${printable(raw)}" is not a key id (key_ and 16 letters or digits)`, { param: 'id' });
  return raw;
}

function noSuchKey(keyId: string): AppError {
  return new AppError('not_found', `this account has no key ${keyId}`);
}
