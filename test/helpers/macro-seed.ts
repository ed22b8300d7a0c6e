import type { RedisClient } from '../../shared/core/redis-client.js';
import { MACRO_RESOURCES } from '../../shared/macro/macro-resources.js';
import { parseMarkets } from '../../shared/macro/providers/coingecko-format.js';
import { SnapshotStore } from '../../shared/snapshots/snapshot-store.js';
import { keys } from '../../shared/redis/keys.js';
import { fixture } from './fixtures.js';

/**
 * Stores what the CoinGecko refresh job would have stored (the fixture's coins), for tests that run
 * the API without a worker: /api/v1/coins then answers from Redis instead of 503 before the first refresh.
 */
export async function seedMacroSnapshots(redis: RedisClient, now = Date.now()): Promise<void> {
  await new SnapshotStore(redis).saveGood(
    keys.macroSnapshot(MACRO_RESOURCES.coins),
    parseMarkets(fixture('coingecko/coins-markets.json')),
    now,
  );
}
