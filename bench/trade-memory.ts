/**
 * Memory per closed trade and what the retention's prune frees and costs (`npx tsx bench/trade-memory.ts [books]
 * [trades]`): on a private Redis, `books` books each close `trades` trades through position-close.lua (all older than
 * the retention), then one prune run removes them. Prints used_memory per trade written and freed, MEMORY USAGE of one
 * book's keys, and the prune's Redis CPU and wall time per trade (INFO cpu around the run alone).
 */
import type { RedisClient } from '../shared/core/redis-client.js';
import { computeClose } from '../shared/engine/close-record.js';
import { closeWrite } from '../shared/paper/positions/close-service.js';
import { PositionStore } from '../shared/paper/positions/position-store.js';
import { pruneLimits, TradePrune } from '../shared/paper/positions/trade-prune.js';
import { closeRedis, createRedis } from '../shared/redis/connection.js';
import { startEmbeddedRedis } from '../shared/redis/embedded.js';
import { keys } from '../shared/redis/keys.js';
import { testPosition } from '../test/helpers/sweep.js';

const BOOKS = Number(process.argv[2] ?? 50);
const TRADES = Number(process.argv[3] ?? 200);
const DAY = 86_400_000;

const server = await startEmbeddedRedis();
const redis = createRedis(server.url);
const store = new PositionStore(redis);
const info = async (section: string, field: string): Promise<number> =>
  Number(new RegExp(`^${field}:([\\d.]+)`, 'm').exec(await redis.info(section))?.[1] ?? 0);
const usedMemory = (): Promise<number> => info('memory', 'used_memory');
const redisCpuMs = async (): Promise<number> => ((await info('cpu', 'used_cpu_sys')) + (await info('cpu', 'used_cpu_user'))) * 1000;
const memoryUsage = async (client: RedisClient, key: string): Promise<number> =>
  Number((await client.call('MEMORY', 'USAGE', key, 'SAMPLES', '0')) ?? 0);

async function settle(accountId: string, closed: number): Promise<void> {
  const ref = { accountId, book: 'main' };
  const position = testPosition(ref, { symbol: 'BTCUSDT', side: 'long', entry: 65_000, opened_ts: closed - 3_600_000 });
  await store.open(ref, position, 1000);
  const read = (await store.getOpen(ref, position.id))!;
  await store.close(closeWrite(ref, read, computeClose(read.position, 65_400, 100, 0, closed, 'manual'), null, 'position.closed'));
}

try {
  const now = Date.now();
  const start = now - 200 * DAY;
  const ids = Array.from({ length: BOOKS }, (_, i) => `acc_bench${i.toString(36).padStart(8, '0')}`);
  const dropOutboxes = () => redis.del(...ids.map((id) => keys.accountOutbox(id)));
  // the first trade of each book makes its keys; the rest are what a trade adds (one a minute: a curve entry each)
  for (const id of ids) await settle(id, start);
  await dropOutboxes();
  const base = await usedMemory();
  for (const id of ids) for (let t = 1; t < TRADES; t++) await settle(id, start + t * 60_000);
  await dropOutboxes();
  const written = await usedMemory();
  const one = ids[0];
  const closed = (await memoryUsage(redis, keys.bookClosed(one, 'main'))) + (await memoryUsage(redis, keys.bookClosedByTime(one, 'main')));
  const json = (await redis.hvals(keys.bookClosed(one, 'main'))).reduce((sum, raw) => sum + raw.length, 0) / TRADES;
  const curve = await memoryUsage(redis, keys.bookEquityCurve(one, 'main'));

  const cpu = await redisCpuMs();
  const started = performance.now();
  const run = await new TradePrune(redis, 90).run(now, { ...pruneLimits(BOOKS * TRADES), slotsPerRead: 16_384 });
  const wall = performance.now() - started;
  const cpuMs = (await redisCpuMs()) - cpu;
  const freed = written - (await usedMemory());
  const lines = [
    `${BOOKS} books x ${TRADES} closed trades`,
    `written: ${((written - base) / (BOOKS * (TRADES - 1))).toFixed(0)} B of used_memory per trade`,
    `one book: closed hash + close-time zset ${(closed / TRADES).toFixed(0)} B per trade (JSON ${json.toFixed(0)} B), equity curve ${(curve / TRADES).toFixed(0)} B per minute with a close`,
    `prune: ${run.trades} trades in ${wall.toFixed(0)} ms wall, ${cpuMs.toFixed(0)} ms Redis CPU (${((cpuMs * 1000) / run.trades).toFixed(1)} us per trade); freed ${(freed / run.trades).toFixed(0)} B per trade`,
    `after: pruned counters ${await memoryUsage(redis, keys.bookPruned(one, 'main'))} B, book counters ${await memoryUsage(redis, keys.bookStats(one, 'main'))} B per book`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
} finally {
  await closeRedis(redis);
  await server.stop();
}
