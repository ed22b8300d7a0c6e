/** Expiry: a resting order that has not filled 30 days after placement expires (the scheduled orders job). */
import type { Clock } from '../../core/clock.js';
import { MAX_ATTEMPTS } from '../positions/position-deps.js';
import type { OrderStore } from './order-store.js';
import { parseExpiryMember, type OrderHint } from './order-types.js';

const BATCH = 200;

export class OrderExpiry {
  constructor(
    private readonly store: OrderStore,
    private readonly clock: Clock,
  ) {}

  /** Expires every order due now (the expiry index is read in batches); returns how many expired. `reqId`: the job's (BookRef.reqId). */
  async expireDue(reqId?: string): Promise<{ expired: number }> {
    const now = this.clock.now();
    let expired = 0;
    // entries left in place (not ours, or not due after all) are stepped over, so the loop ends
    let skipped = 0;
    for (;;) {
      const members = await this.store.due(now, BATCH + skipped);
      const fresh = members.slice(skipped);
      for (const member of fresh) {
        const hint = parseExpiryMember(member);
        const outcome = hint ? await this.expireOne(reqId === undefined ? hint : { ...hint, ref: { ...hint.ref, reqId } }, now) : 'skipped';
        if (outcome === 'expired') expired++;
        if (outcome === 'skipped') skipped++;
      }
      if (fresh.length < BATCH) return { expired };
    }
  }

  private async expireOne(
    hint: OrderHint & { symbol: string; reach: 'down' | 'up' },
    now: number,
  ): Promise<'expired' | 'dropped' | 'skipped'> {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const read = await this.store.get(hint.ref, hint.orderId);
      if (!read || read.order.status !== 'open') {
        await this.store.dropHints([hint]);
        return 'dropped';
      }
      if (read.order.expires_ts > now) return 'skipped';
      const outcome = await this.store.expire(hint.ref, read, { ...read.order, status: 'expired', done_ts: now }, now);
      if (outcome === 'applied') return 'expired';
      if (outcome === 'gone') return 'dropped';
    }
    return 'skipped';
  }
}
