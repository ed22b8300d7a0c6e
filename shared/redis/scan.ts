import { Cluster, type Redis } from 'ioredis';
import type { RedisClient } from '../core/redis-client.js';
import { masterNodes } from './connection.js';

export interface ScanOptions {
  match: string;
  count: number;
  /** Only keys of this type (SCAN's TYPE option). */
  type?: string;
}

/** The masters in a stable order (host:port), so a cursor's master index means the same node on the next step. */
function orderedMasters(masters: Redis[]): Redis[] {
  const name = (node: Redis): string => `${node.options.host ?? ''}:${node.options.port ?? 0}`;
  return masters.sort((a, b) => name(a).localeCompare(name(b)));
}

async function scanNode(node: Redis, cursor: string, options: ScanOptions): Promise<[string, string[]]> {
  return options.type === undefined
    ? node.scan(cursor, 'MATCH', options.match, 'COUNT', options.count)
    : node.scan(cursor, 'MATCH', options.match, 'COUNT', options.count, 'TYPE', options.type);
}

/**
 * One SCAN step over every key there is: the next cursor ('0' at the end) and the keys found. On a Redis Cluster each
 * master answers SCAN for its own keys only, so the cursor walks the masters one after another (`<master>:<cursor>`).
 * A master added or removed during a walk may make it miss or repeat keys moved meanwhile, as SCAN may on one server
 * for keys written during it: callers scan again periodically.
 */
export async function scanStep(redis: RedisClient, cursor: string, options: ScanOptions): Promise<[string, string[]]> {
  if (!(redis instanceof Cluster)) return scanNode(redis, cursor, options);
  const masters = orderedMasters(await masterNodes(redis));
  const [index, nodeCursor] = cursor === '0' ? [0, '0'] : [Number(cursor.split(':')[0]), cursor.split(':')[1] ?? '0'];
  if (index >= masters.length) return ['0', []];
  const [next, found] = await scanNode(masters[index], nodeCursor, options);
  if (next !== '0') return [`${index}:${next}`, found];
  return [index + 1 < masters.length ? `${index + 1}:0` : '0', found];
}

/** Every key matching, across every master (tests, the audit: a full walk of the keyspace). */
export async function scanAll(redis: RedisClient, options: ScanOptions): Promise<string[]> {
  const all: string[] = [];
  let cursor = '0';
  do {
    const [next, found] = await scanStep(redis, cursor, options);
    all.push(...found);
    cursor = next;
  } while (cursor !== '0');
  return all;
}
