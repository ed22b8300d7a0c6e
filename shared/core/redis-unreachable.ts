/** Which errors mean Redis could not be reached: a pure classifier, so the HTTP layer can answer 503 without importing shared/redis. */

/** Node's codes for a connection that could not be made or was lost. */
const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
/** ioredis's rejection of a command unanswered for `commandTimeout` (a stuck or paused shard). */
const REDIS_TIMEOUT_MESSAGE = 'Command timed out';
/**
 * Redis at `maxmemory` with `noeviction`: it refuses every write (a script at its first write, before it changed anything),
 * serves reads; the bare reply or a script's error carrying it.
 */
const OUT_OF_MEMORY = /(^|: )OOM command not allowed/;

/** What ioredis rejects a command with while its connection is down, by error name or message. */
const UNREACHABLE_NAMES = new Set(['MaxRetriesPerRequestError', 'ClusterAllFailedError']);
/**
 * The last is ioredis's Cluster client giving up on a command that kept being redirected: a slot moving between masters
 * (TRYAGAIN while its keys are split, MOVED while the nodes learn the new owner); sent again later, it is served.
 */
const UNREACHABLE_MESSAGES = ['Connection is closed.', "Stream isn't writeable", 'Too many Cluster redirections.', REDIS_TIMEOUT_MESSAGE];
/**
 * Replies of a server that is up but cannot serve yet (loading its data, a failover, a cluster without a slot's node, a
 * script touching a key of a slot that is being migrated: the scripts touch every key before they write, so nothing
 * was changed).
 */
const NOT_SERVING = /^(LOADING|MASTERDOWN|CLUSTERDOWN|TRYAGAIN) |^ERR Script attempted to access a non local key/;

/**
 * True when a command failed because Redis could not be reached (or could not serve), not because
 * of the command: the request that sent it can succeed later unchanged. Follows `cause`.
 */
export function isRedisUnreachable(error: unknown): boolean {
  for (let e = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    const code = (e as NodeJS.ErrnoException).code;
    if (UNREACHABLE_NAMES.has(e.name) || (code !== undefined && CONNECTION_CODES.has(code))) return true;
    if (UNREACHABLE_MESSAGES.some((m) => e instanceof Error && e.message.startsWith(m)) || NOT_SERVING.test(e.message)) return true;
  }
  return false;
}

/** Why Redis refused or dropped a command that may succeed later unchanged: oom, timeout, or null (another cause). */
export function redisRefusal(error: unknown): 'oom' | 'timeout' | null {
  for (let e = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    if (OUT_OF_MEMORY.test(e.message)) return 'oom';
    if (e.message.startsWith(REDIS_TIMEOUT_MESSAGE)) return 'timeout';
  }
  return null;
}
