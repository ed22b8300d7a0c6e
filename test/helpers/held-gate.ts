import type { RedisClient } from '../../shared/core/redis-client.js';
import { systemClock } from '../../shared/core/clock.js';
import type { AccountServices } from '../../shared/paper/accounts/account-services.js';
import { StoredApiKeyResolver, type ApiKeyResolver } from '../../shared/paper/api-key-resolver.js';
import { readAfterHooks, startTestApi, type SetByHooks, type TestApi } from './app.js';

/**
 * A key resolver that holds each key gate's answer until the test lets it go: what a route sends
 * to Redis while its key is still being looked up shows up in between. With `holds: 'lookup'` it
 * holds the plain lookups (resolve, what the stream calls) instead, each once it has read
 * everything: what changes meanwhile is not in its answer.
 */
export class HeldGate {
  readonly resolver: ApiKeyResolver;
  private releaseHeld: () => void = () => undefined;
  private onCall: () => void = () => undefined;

  constructor(stored: StoredApiKeyResolver, holds: 'gate' | 'lookup' = 'gate') {
    this.resolver = {
      resolve: async (key) => {
        const answer = await stored.resolve(key);
        if (holds === 'lookup') await this.hold();
        return answer;
      },
      known: (key) => stored.known(key),
      resolveMetered: async (key, windowMs) => {
        // the gate itself is sent at once; only its answer is held
        const answer = stored.resolveMetered(key, windowMs);
        if (holds === 'gate') await this.hold();
        return answer;
      },
    };
  }

  private hold(): Promise<void> {
    return new Promise<void>((resolve) => {
      this.releaseHeld = resolve;
      this.onCall();
    });
  }

  /** Settles once the next gate has been sent and is held. */
  nextCall(): Promise<void> {
    return new Promise<void>((resolve) => (this.onCall = resolve));
  }

  /** Lets the held gate answer. */
  release(): void {
    this.releaseHeld();
  }

  /** Lets the next gate answer as soon as it is sent. */
  releaseNext(): void {
    void this.nextCall().then(() => this.release());
  }
}

/**
 * Registers before/after hooks for a describe block: an API server on the suite's Redis whose key
 * gates are held (HeldGate). Read the fields inside tests (they are set once `before` ran).
 */
export function useHeldGateApi(stack: { readonly redis: RedisClient; readonly mod: AccountServices }): {
  readonly api: TestApi;
  readonly gate: HeldGate;
} {
  const fixture: SetByHooks<{ api: TestApi; gate: HeldGate }> = {};
  before(async () => {
    const { redis, mod } = stack;
    const gate = new HeldGate(new StoredApiKeyResolver({ accounts: mod.accounts, keys: mod.keys, clock: systemClock }));
    fixture.gate = gate;
    fixture.api = await startTestApi(redis, { PUBLIC_RATE_LIMIT: '1000000' }, { apiKeys: gate.resolver });
  });
  after(() => fixture.api?.close());
  return readAfterHooks('useHeldGateApi', fixture);
}
