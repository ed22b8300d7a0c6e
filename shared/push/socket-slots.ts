/**
 * The per-account cap of WebSocket streams, shared across keys and API pods: one slot per socket in
 * a Redis sorted set scored by when it lapses. Pods renew their sockets' slots; a pod that dies
 * stops renewing, and its slots lapse within the slot TTL.
 */
import type { RedisClient } from '../core/redis-client.js';
import { keys } from '../redis/keys.js';
import { pushScripts } from './lua/push-scripts.js';
import { anySlotPipeline } from '../redis/pipeline.js';

export interface SlotRef {
  accountId: string;
  socketId: string;
}

export class SocketSlots {
  constructor(
    private readonly redis: RedisClient,
    private readonly ttlMs: number,
  ) {}

  /** Takes a slot unless the account holds `cap` live ones; answers whether it did and how many are held. */
  async claim(slot: SlotRef, cap: number, now: number): Promise<{ ok: boolean; held: number }> {
    const [status, held] = await pushScripts.runStatus(this.redis, 'socket-claim', {
      keys: [keys.accountSockets(slot.accountId)],
      args: [now, now + this.ttlMs, cap, slot.socketId],
    });
    return { ok: status === 1, held: Number(held) };
  }

  /** Pushes the lapse time of live sockets' slots forward (one pipeline for all of a pod's sockets). */
  async renew(slots: SlotRef[], now: number): Promise<void> {
    if (slots.length === 0) return;
    const pipeline = anySlotPipeline(this.redis);
    for (const slot of slots) {
      const key = keys.accountSockets(slot.accountId);
      pipeline.zadd(key, now + this.ttlMs, slot.socketId).pexpire(key, this.ttlMs);
    }
    await pipeline.exec();
  }

  async release(slots: SlotRef[]): Promise<void> {
    if (slots.length === 0) return;
    const pipeline = anySlotPipeline(this.redis);
    for (const slot of slots) pipeline.zrem(keys.accountSockets(slot.accountId), slot.socketId);
    await pipeline.exec();
  }
}
