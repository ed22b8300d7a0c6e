import type { RedisClient } from '../shared/core/redis-client.js';
import type { Config } from '../shared/config.js';
import type { Logger } from '../shared/core/logger.js';
import type { Readiness } from '../api/middleware/health.js';
import type { Domain } from '../shared/domain.js';

/** What every role gets when it starts. */
export interface RoleContext {
  config: Config;
  redisUrl: string;
  redis: RedisClient;
  logger: Logger;
  /** The process's readiness checks (/readyz): a role adds what its own trouble looks like. */
  readiness?: Readiness;
  /** The composition root on `redis`, when the service built it (workers/service.ts); a role builds it when absent. */
  domain?: Domain;
}

/** A started role; stop() ends its work cleanly and resolves when it has. */
export interface RunningRole {
  name: string;
  stop(): Promise<void>;
}
