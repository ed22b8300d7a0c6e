/** Where a book's simulation profile lives (its own hash in the account's slot) and its seeded draw counter. */
import type { RedisClient } from '../../core/redis-client.js';
import { parseProfile, seedOf, type SimProfile } from '../../engine/sim-profile.js';
import { keys } from '../../redis/keys.js';
import type { KeyContext } from '../key-context.js';
import type { BookRef } from '../positions/position-types.js';

/** The seed of a book's reject draws: fixed per book, so its sequence is reproducible. */
export const bookSeed = (ref: BookRef): number => seedOf(`${ref.accountId}|${ref.book}`);

export class SimSettings {
  constructor(private readonly redis: RedisClient) {}

  async profile(ref: BookRef): Promise<SimProfile> {
    return parseProfile(await this.redis.hget(keys.bookSim(ref.accountId, ref.book), 'profile'));
  }

  /** The profile of the context's book: as the key gate read it with the request, else from Redis. */
  async profileOf(ctx: Pick<KeyContext, 'accountId' | 'book' | 'simProfile'>): Promise<SimProfile> {
    return ctx.simProfile === undefined ? this.profile(ctx) : parseProfile(ctx.simProfile);
  }

  /** Stores the profile; the draw sequence restarts, so the same profile meets the same refusals again. */
  async save(ref: BookRef, profile: SimProfile): Promise<void> {
    const key = keys.bookSim(ref.accountId, ref.book);
    await this.redis.multi().hset(key, 'profile', JSON.stringify(profile)).hdel(key, 'draws').exec();
  }

  /** The index (from 0) of this open in the book's draw sequence. */
  async nextDraw(ref: BookRef): Promise<number> {
    return (await this.redis.hincrby(keys.bookSim(ref.accountId, ref.book), 'draws', 1)) - 1;
  }
}
