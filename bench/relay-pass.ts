/**
 * The outbox relay's periodic pass against the keyspace's size (`npx tsx bench/relay-pass.ts [keys] [indexed]`): on a
 * private Redis holding `keys` small keys in accounts' slots and `indexed` unrelayed outboxes, the Redis CPU and wall
 * time of one pass over the per-slot index (what the relay runs) and of one walk of the keyspace with SCAN (what it
 * ran before). Redis CPU from its INFO cpu counters, around the pass alone.
 */
import { OutboxStore } from '../shared/push/outbox-store.js';
import { closeRedis, createRedis } from '../shared/redis/connection.js';
import { startEmbeddedRedis } from '../shared/redis/embedded.js';
import { keys } from '../shared/redis/keys.js';
import { scanAll } from '../shared/redis/scan.js';
import { SLOTS } from '../shared/redis/slot-tags.js';

const KEYS = Number(process.argv[2] ?? 200_000);
const INDEXED = Number(process.argv[3] ?? 1_000);
const STEP = 1024;

const server = await startEmbeddedRedis();
const redis = createRedis(server.url);
const redisCpuMs = async (): Promise<number> => {
  const info = await redis.info('cpu');
  const field = (name: string): number => Number(new RegExp(`^${name}:([\\d.]+)`, 'm').exec(info)?.[1] ?? 0);
  return (field('used_cpu_sys') + field('used_cpu_user')) * 1000;
};
async function measure(label: string, run: () => Promise<unknown>): Promise<void> {
  const rounds: string[] = [];
  for (let round = 0; round < 3; round++) {
    const cpu = await redisCpuMs();
    const started = performance.now();
    await run();
    rounds.push(`${(performance.now() - started).toFixed(0)} ms wall, ${((await redisCpuMs()) - cpu).toFixed(0)} ms Redis CPU`);
  }
  process.stdout.write(`${label}: ${rounds.join('; ')}\n`);
}
try {
  for (let from = 0; from < KEYS; from += 50_000) {
    await redis.eval(
      "for i = ARGV[1], ARGV[2] do redis.call('SET', 'acct:{a' .. i .. '}:paper:books', 'x') end",
      0,
      from,
      Math.min(KEYS, from + 50_000) - 1,
    );
  }
  for (let i = 0; i < INDEXED; i++) {
    await redis.xadd(keys.accountOutbox(`a${i}`), '*', 'event', 'x');
    await redis.sadd(keys.outboxIndex(`a${i}`), keys.accountOutbox(`a${i}`));
  }
  const store = new OutboxStore(redis);
  process.stdout.write(`${KEYS} keys, ${INDEXED} unrelayed outboxes\n`);
  await measure('index pass (16 steps)', async () => {
    for (let slot = 0; slot < SLOTS; slot += STEP) await store.indexStep(slot, STEP, (error) => Promise.reject(error));
  });
  await measure('SCAN walk (before)', () => scanAll(redis, { match: keys.accountOutboxPattern, count: 1000, type: 'stream' }));
} finally {
  await closeRedis(redis);
  await server.stop();
}
