/** The stores of accounts, keys, plans and books on one connection, and the service over them. */
import type { RedisClient } from '../../core/redis-client.js';
import { systemClock, type Clock } from '../../core/clock.js';
import { SecretBox } from '../../core/secret-box.js';
import { SocketCap } from '../../push/socket-notices.js';
import { AccountService } from './account-service.js';
import { AccountStore } from './account-store.js';
import type { RandomBytes } from './api-key-format.js';
import { RedisBookRegistry, type BookRegistry } from './book-registry.js';
import { KeyStore } from './key-store.js';
import { PlanStore } from './plan-store.js';

export interface AccountServices {
  service: AccountService;
  accounts: AccountStore;
  keys: KeyStore;
  books: BookRegistry;
  /** The accounts' plans (the order sweep reads the open-position cap). */
  plans: PlanStore;
}

/** `secretsKey`: the server's key keys' HMAC secrets are sealed under (config.webhookSecretsKey); without it, none. */
export function createAccountServices(deps: {
  redis: RedisClient;
  clock?: Clock;
  random?: RandomBytes;
  secretsKey?: Buffer;
}): AccountServices {
  const { redis, clock = systemClock, random } = deps;
  const secrets = deps.secretsKey && new SecretBox(deps.secretsKey);
  const accounts = new AccountStore(redis, random);
  const keys = new KeyStore(redis);
  const books = new RedisBookRegistry(redis, keys);
  const plans = new PlanStore(redis);
  const service = new AccountService({ accounts, keys, plans, books, sockets: new SocketCap(redis), clock, random, secrets });
  return { service, accounts, keys, books, plans };
}
