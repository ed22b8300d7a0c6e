import type { Clock } from '../core/clock.js';
import { accountFromProfile, type Account, type AccountStore } from './accounts/account-store.js';
import { apiKeyDigest, looksLikeApiKey } from './accounts/api-key-format.js';
import type { KeyStore, KeySummary } from './accounts/key-store.js';
import type { KeyContext } from './key-context.js';
import { effectivePlan } from './plans.js';

/** What the rate limiter and keyed routes need to know about an API key. */
export interface ResolvedApiKey {
  keyId: string;
  plan: string;
  requestsPerMinute: number;
  /**
   * The key's full context (account, book, plan). The store-backed resolver always sets it; a
   * resolver without it (a test double) makes keyed routes look the key up again themselves.
   */
  context?: KeyContext;
  /** The call, already counted in the key's rate window (resolveMetered); absent, the rate limiter counts it. */
  window?: { calls: number; resetAt: number };
}

export type ApiKeyLookup = ResolvedApiKey | { revoked: true } | null;

/** Looks an X-API-Key up. null: no such key. */
export interface ApiKeyResolver {
  resolve(apiKey: string): Promise<ApiKeyLookup>;
  /**
   * resolve, with the call counted in the key's rate window of `windowMs` in the same round trip;
   * a resolver without it (a test double) leaves the counting to the rate limiter.
   */
  resolveMetered?(apiKey: string, windowMs: number): Promise<ApiKeyLookup>;
  /**
   * What this process already knows of a key it has found before (checked in memory), undefined
   * for any other. Only such requests start their route's reads before the key is checked, so
   * made-up keys cost no more than a lookup.
   */
  known?(apiKey: string): KnownKey | undefined;
}

/** A key found before: its account, and its book once a lookup has read its record. */
export interface KnownKey {
  accountId: string;
  book?: string;
}

/** Where the rate limiter leaves the key it resolved (res.locals), so a request looks its key up once. */
export interface ResolvedKeyLocals {
  apiKey?: ResolvedApiKey;
}

/** The digest a key is indexed by; null for text that cannot be a key (never looked up). */
const digestOf = (apiKey: string): string | null => (looksLikeApiKey(apiKey) ? apiKeyDigest(apiKey) : null);

/**
 * Resolves a key from Redis: the digest index (remembered in-process: it never changes) and then
 * the key's record and its account's profile together, in one round trip (with the call counted
 * in the key's rate window too, for resolveMetered). The plan is the effective one now: a paid
 * plan that has ended is Free.
 */
export class StoredApiKeyResolver implements ApiKeyResolver {
  constructor(private readonly deps: { accounts: AccountStore; keys: KeyStore; clock: Clock }) {}

  async resolve(apiKey: string): Promise<ApiKeyLookup> {
    const digest = digestOf(apiKey);
    const ref = digest && (await this.deps.keys.findByDigest(digest));
    if (!digest || !ref) return null;
    const [key, account] = await Promise.all([this.deps.keys.get(ref.accountId, ref.keyId), this.deps.accounts.get(ref.accountId)]);
    if (key) this.deps.keys.rememberBook(digest, key.book);
    return this.lookup(key, account);
  }

  async resolveMetered(apiKey: string, windowMs: number): Promise<ApiKeyLookup> {
    const digest = digestOf(apiKey);
    const ref = digest && (await this.deps.keys.findByDigest(digest));
    const gate = ref && (await this.deps.keys.gate(ref, windowMs));
    if (!digest || !ref || !gate) return null;
    this.deps.keys.rememberBook(digest, gate.key.book);
    return this.lookup(gate.key, accountFromProfile(ref.accountId, gate.profile), {
      feeVenue: gate.feeVenue,
      replay: gate.replay,
      simProfile: gate.simProfile,
      window: { calls: gate.calls, resetAt: this.deps.clock.now() + gate.msLeft },
    });
  }

  known(apiKey: string): KnownKey | undefined {
    const digest = digestOf(apiKey);
    const cached = digest ? this.deps.keys.cachedRef(digest) : undefined;
    return cached && { accountId: cached.accountId, book: cached.book };
  }

  /**
   * `gated`: what the key gate read with the key (resolveMetered), set on the answer as built:
   * spreading the answer into a copy with them left garbage in the old generation on every
   * keyed request (bench/HISTORY.md, the old generation).
   */
  private lookup(
    key: KeySummary | null,
    account: Account | null,
    gated?: Pick<KeyContext, 'feeVenue' | 'replay' | 'simProfile'> & { window: ResolvedApiKey['window'] },
  ): ApiKeyLookup {
    if (!key || !account) return null;
    if (key.revokedAt !== null) return { revoked: true };
    const plan = effectivePlan(account.plan, this.deps.clock.now());
    const context: KeyContext = {
      keyId: key.id,
      keyName: key.name,
      accountId: account.id,
      email: account.email,
      book: key.book,
      bookBound: key.bound,
      plan,
    };
    const found: ResolvedApiKey = { keyId: key.id, plan: plan.limits.id, requestsPerMinute: plan.limits.requestsPerMinute, context };
    if (gated) {
      context.feeVenue = gated.feeVenue;
      context.replay = gated.replay;
      if (gated.simProfile !== undefined) context.simProfile = gated.simProfile;
      found.window = gated.window;
    }
    return found;
  }
}
