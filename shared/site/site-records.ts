/**
 * The site's own records (users, sessions, sign-in links and the development outbox) through redis-om, on a node-redis v4
 * client (the `redis4` alias) of its own. Each schema is a HASH (no search module needed), so its key is `<schema>:<id>`
 * in the site's keyspace (`site:`); what redis-om would need RediSearch for (finding a user's sessions) is kept in sets of
 * our own. Accounts, keys and money stay on the ioredis stores and their scripts.
 *
 * Every command here names one key, so the records work on Redis Cluster too: with REDIS_CLUSTER the client is
 * node-redis's cluster client on the same seeds (redis-om takes either).
 */
import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { SeededCluster, type RedisClient } from '../core/redis-client.js';
import { createClient, createCluster } from 'redis4';
import { Repository, Schema, type Entity } from 'redis-om';

/** The site's keyspace: redis-om's schemas and our own index keys all start with it. */
export const SITE_KEYSPACE = 'site';

export const siteKeys = {
  /** set of the digests of an account's sessions (sign out everywhere); entries whose session lapsed are pruned on use. */
  accountSessions: (accountId: string) => `${SITE_KEYSPACE}:account-sessions:${accountId}`,
  /** set of the digests of an address's sign-in links (a sign-in ends the others); lives as long as a link record. */
  emailLinks: (email: string) => `${SITE_KEYSPACE}:email-links:${createHash('sha256').update(email, 'utf8').digest('hex')}`,
  /** list of JSON OutboxMail, newest first, the last OUTBOX_KEEP: the development outbox (no SMTP_URL). */
  outbox: () => `${SITE_KEYSPACE}:outbox`,
};

/** A site user: one per account that signed in on the site; id = the account id. */
export const userSchema = new Schema(
  `${SITE_KEYSPACE}:user`,
  { email: { type: 'string' }, created: { type: 'number' }, last_sign_in: { type: 'number' } },
  { dataStructure: 'HASH' },
);

/** A session; id = SHA-256 of the cookie's random value, so a copy of Redis holds no live cookie. Expires 30 days after its last use. */
export const sessionSchema = new Schema(
  `${SITE_KEYSPACE}:session`,
  { account: { type: 'string' }, email: { type: 'string' }, created: { type: 'number' } },
  { dataStructure: 'HASH' },
);

/** A one-time sign-in link; id = SHA-256 of its token. `used` (epoch ms) is claimed with HSETNX: one opening wins. */
export const linkSchema = new Schema(
  `${SITE_KEYSPACE}:link`,
  { email: { type: 'string' }, created: { type: 'number' }, expires: { type: 'number' }, used: { type: 'number' } },
  { dataStructure: 'HASH' },
);

export type SiteClient = ReturnType<typeof createClient> | ReturnType<typeof createCluster>;

export interface SiteRecords {
  client: SiteClient;
  users: Repository<Entity>;
  sessions: Repository<Entity>;
  links: Repository<Entity>;
}

/**
 * A node-redis v4 client on the same server and database as the given ioredis connection (whose URL may be the private
 * redis-server's, unknown to the config), connected once on first use and closed by `close`.
 */
export class SiteRedis {
  private opened: Promise<SiteRecords> | undefined;

  constructor(
    private readonly redis: RedisClient,
    private readonly onError: (error: unknown) => void,
  ) {}

  records(): Promise<SiteRecords> {
    this.opened ??= this.connect().catch((error: unknown) => {
      this.opened = undefined;
      throw error;
    });
    return this.opened;
  }

  async close(): Promise<void> {
    const opened = this.opened;
    this.opened = undefined;
    if (!opened) return;
    const { client } = await opened.catch(() => ({ client: undefined }));
    if (client?.isOpen) await client.quit();
  }

  private async connect(): Promise<SiteRecords> {
    const client = this.redis instanceof SeededCluster ? this.clusterClient(this.redis) : this.serverClient(this.redis as Redis);
    client.on('error', this.onError);
    await client.connect();
    return {
      client,
      users: new Repository(userSchema, client),
      sessions: new Repository(sessionSchema, client),
      links: new Repository(linkSchema, client),
    };
  }

  private serverClient(redis: Redis): SiteClient {
    const { host, port, username, password, db, tls } = redis.options;
    return createClient({
      socket: { host, port, tls: tls !== undefined, connectTimeout: 5_000 },
      username: username || undefined,
      password: password || undefined,
      database: db ?? 0,
      // a command while the connection is down fails at once (503 through the API's gate) rather than waiting
      disableOfflineQueue: true,
    });
  }

  /** On a Redis Cluster, node-redis's own cluster client on the same seeds: every record is one key, in its own slot. */
  private clusterClient(cluster: SeededCluster): SiteClient {
    const { username, password, tls } = cluster.options.redisOptions ?? {};
    return createCluster({
      rootNodes: cluster.seeds.map(({ host, port }) => ({ socket: { host, port } })),
      defaults: {
        socket: { tls: tls !== undefined, connectTimeout: 5_000 },
        username: username || undefined,
        password: password || undefined,
        disableOfflineQueue: true,
      },
    });
  }
}
