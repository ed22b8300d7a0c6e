/** Where Redis is and how the private redis-server keeps its data, declared for the composed config (shared/config.ts). */
import Joi from 'joi';
import { ConfigError } from '../core/config-error.js';
import { redisUrlParses } from '../core/config-secrets.js';
import { clusterAddress } from './connection.js';

export type AppendFsync = 'everysec' | 'always';

export interface RedisSettings {
  /**
   * Where Redis is, as one string (shared/redis/connection.ts): REDIS_URL, or with REDIS_CLUSTER=true `cluster:` and its
   * seed URLs; undefined starts a private redis-server.
   */
  redisUrl: string | undefined;
  /** Where the private redis-server keeps its append-only file when REDIS_URL is unset. */
  redisDataDir: string;
  /**
   * The private redis-server's append-only file sync: 'everysec' (an fsync a second: a crash of the machine loses at
   * most about the last second of acknowledged writes, two when the disk stalls) or 'always' (an fsync before each
   * reply: nothing acknowledged is lost, every write waits for the disk).
   */
  redisAppendFsync: AppendFsync;
  /**
   * How long a Redis command may go unanswered before it fails (ioredis `commandTimeout`), so a stuck shard cannot hold a
   * request forever: the request answers 503 unavailable. Not on BullMQ's blocking connections (their commands block).
   */
  redisCommandTimeoutMs: number;
}

export function redisSchema(): Record<string, Joi.Schema> {
  return {
    // one redis:// URL, or a cluster's seed nodes comma-separated; the `cluster:` prefix is what REDIS_CLUSTER=true adds
    REDIS_URL: Joi.string()
      .pattern(/^(cluster:)?rediss?:\/\/[^,\s]+(,rediss?:\/\/[^,\s]+)*$/)
      .custom((value: string, helpers) => (redisUrlParses(value) ? value : helpers.error('string.pattern.base')))
      .messages({ 'string.pattern.base': 'must be redis:// or rediss:// URLs (host, port up to 65535), comma-separated' }),
    REDIS_CLUSTER: Joi.boolean().default(false),
    REDIS_DATA_DIR: Joi.string().default('.data/redis'),
    REDIS_APPENDFSYNC: Joi.string().valid('everysec', 'always').default('everysec'),
    REDIS_COMMAND_TIMEOUT_MS: Joi.number().integer().min(100).default(3_000),
  };
}

/** REDIS_URL as the connection factory reads it: marked `cluster:` for a Redis Cluster (several seeds are one). */
function redisAddress(url: string | undefined, cluster: boolean): string | undefined {
  if (url === undefined) {
    if (cluster) throw new ConfigError('REDIS_CLUSTER: needs REDIS_URL (the private redis-server is one node)');
    return undefined;
  }
  const marked = url.startsWith('cluster:');
  if (!cluster && !marked && url.includes(','))
    throw new ConfigError('REDIS_URL: several nodes name a Redis Cluster: set REDIS_CLUSTER=true');
  return cluster ? clusterAddress(url) : url;
}

export function redisSettings(value: {
  REDIS_URL?: string;
  REDIS_CLUSTER: boolean;
  REDIS_DATA_DIR: string;
  REDIS_APPENDFSYNC: AppendFsync;
  REDIS_COMMAND_TIMEOUT_MS: number;
}): RedisSettings {
  return {
    redisUrl: redisAddress(value.REDIS_URL, value.REDIS_CLUSTER),
    redisDataDir: value.REDIS_DATA_DIR,
    redisAppendFsync: value.REDIS_APPENDFSYNC,
    redisCommandTimeoutMs: value.REDIS_COMMAND_TIMEOUT_MS,
  };
}
