/** Exponential backoff with jitter, capped. Pure: the random source is injected. */

/**
 * Delay before retry number `attempt` (0-based): the capped exponential minMs x 2^attempt, of which
 * a random half is kept ("equal jitter"), so a crowd of clients that lost the same server spreads out.
 */
export function backoffDelay(attempt: number, minMs: number, maxMs: number, random: () => number = Math.random): number {
  const ceiling = Math.min(maxMs, minMs * 2 ** Math.min(Math.max(0, attempt), 30));
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}
