/**
 * What an API pod's stream keeps in Redis, built on the connection it is given (by shared/api-pod.ts): its sockets' slots under each
 * account's cap (SocketSlots) and the account channels it hears (AccountEvents), on a subscriber connection of its own.
 */
import { subscriberClient, type RedisClient } from '../core/redis-client.js';
import { AccountEvents } from './account-events.js';
import { SocketSlots } from './socket-slots.js';

export interface StreamBackplane {
  slots: SocketSlots;
  /** Subscribed to the accounts the pod holds sockets of; closing it closes its connection. */
  events: AccountEvents;
}

export interface StreamBackplaneDeps {
  /** The pod's connection: the slots' commands go out on it, the subscriber is opened beside it. */
  redis: RedisClient;
  /** How long a socket's slot outlives its last renewal (STREAM_SLOT_TTL_MS). */
  slotTtlMs: number;
  /** A channel message that is not JSON. */
  onError(error: unknown): void;
}

export function openStreamBackplane({ redis, slotTtlMs, onError }: StreamBackplaneDeps): StreamBackplane {
  return { slots: new SocketSlots(redis, slotTtlMs), events: new AccountEvents(subscriberClient(redis), onError) };
}
