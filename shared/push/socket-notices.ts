/**
 * Notices that cut open WebSocket streams from outside the stream (a revoked key, a plan whose
 * socket cap fell). They go out on the account's channel, which every pod holding a socket of the
 * account hears; each pod closes the sockets a notice names with its close code and reason.
 */
import type { RedisClient } from '../core/redis-client.js';
import { keys } from '../redis/keys.js';
import { pushScripts } from './lua/push-scripts.js';

/** The stream's close codes (the reason is the error code, where there is one). */
export const STREAM_CLOSE_CODES = { keyRefused: 4401, tooManySockets: 4429, recycled: 4000, goingAway: 1001, internal: 1011 } as const;

/** Close these sockets: those of one key, or those listed by socket id. */
export interface SocketNotice {
  cut: { key?: string; sockets?: string[] };
  code: number;
  reason: string;
}

/** The notice key-revoke.lua publishes: every socket of the key closes 4401 revoked_key. */
export function revokedKeyNotice(keyId: string): string {
  const notice: SocketNotice = { cut: { key: keyId }, code: STREAM_CLOSE_CODES.keyRefused, reason: 'revoked_key' };
  return JSON.stringify(notice);
}

/** The notice a site sign-out publishes: the streams of the ended session close 4401 login_required. */
export function endedSessionNotice(sessionKeyId: string): string {
  const notice: SocketNotice = { cut: { key: sessionKeyId }, code: STREAM_CLOSE_CODES.keyRefused, reason: 'login_required' };
  return JSON.stringify(notice);
}

export function isSocketNotice(message: unknown): message is SocketNotice {
  if (message === null || typeof message !== 'object' || !('cut' in message)) return false;
  const { cut, code, reason } = message as Partial<SocketNotice>;
  return cut !== null && typeof cut === 'object' && typeof code === 'number' && typeof reason === 'string';
}

/** True when the notice names the socket (by its key or its id). */
export function noticeNames(notice: SocketNotice, socket: { keyId: string; socketId: string }): boolean {
  return notice.cut.key === socket.keyId || (notice.cut.sockets?.includes(socket.socketId) ?? false);
}

/** The account side of the socket cap: what a plan change calls. */
export class SocketCap {
  constructor(private readonly redis: RedisClient) {}

  /**
   * Holds the account to `cap` sockets (socket-trim.lua): the slots beyond it are dropped and the
   * pods holding them told to close them, 4429 too_many_sockets. Answers how many were cut.
   */
  async enforce(accountId: string, cap: number, now: number): Promise<number> {
    return pushScripts.runInteger(this.redis, 'socket-trim', {
      keys: [keys.accountSockets(accountId)],
      args: [now, cap, keys.accountEvents(accountId), STREAM_CLOSE_CODES.tooManySockets, 'too_many_sockets'],
    });
  }
}
