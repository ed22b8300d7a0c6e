/**
 * While the API's Redis connection is down, requests answer 503 unavailable at once: waiting for a
 * reconnect would hold each for seconds (the client's back-off grows) only to fail it the same way.
 * A request already sent when the connection dropped fails through the error handler, which names
 * the same error.
 */
import type { ApiPod } from '../../shared/api-pod.js';
import { AppError } from '../../shared/core/errors.js';
import type { Middleware } from '../routing/http-types.js';

/** What a client waits before trying again while Redis is unreachable, seconds. */
export const UNAVAILABLE_RETRY_AFTER_S = 5;

export function redisUnavailable(): AppError {
  return new AppError('unavailable', `the service cannot reach its data store; retry in ${UNAVAILABLE_RETRY_AFTER_S} s`, {
    retry_after: UNAVAILABLE_RETRY_AFTER_S,
  });
}

export function redisGate(health: ApiPod['health']): Middleware {
  return (_req, _res, next) => next(health.down() ? redisUnavailable() : undefined);
}
