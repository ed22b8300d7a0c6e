/**
 * While the API's Redis connection is down, requests answer 503 unavailable at once: waiting for a
 * reconnect would hold each for seconds (the client's back-off grows) only to fail it the same way.
 * A request already sent when the connection dropped fails through the error handler, which names
 * the same error.
 */
import type { RedisClient } from '../../shared/core/redis-client.js';
import { AppError } from '../../shared/core/errors.js';
import type { Middleware } from '../routing/http-types.js';

/** What a client waits before trying again while Redis is unreachable, seconds. */
export const UNAVAILABLE_RETRY_AFTER_S = 5;

/** Connection states in which no command can be sent (connecting, at start, still queues them). */
const DOWN: ReadonlySet<string> = new Set(['reconnecting', 'close', 'end']);

export function redisUnavailable(): AppError {
  return new AppError('unavailable', `the service cannot reach its data store; retry in ${UNAVAILABLE_RETRY_AFTER_S} s`, {
    retry_after: UNAVAILABLE_RETRY_AFTER_S,
  });
}

export const isRedisDown = (redis: RedisClient): boolean => DOWN.has(redis.status);

export function redisGate(redis: RedisClient): Middleware {
  return (_req, _res, next) => next(isRedisDown(redis) ? redisUnavailable() : undefined);
}
