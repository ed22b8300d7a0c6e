import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RedisClient } from '../../shared/core/redis-client.js';
import type { AppendFsync } from '../../shared/redis/redis-settings.js';
import { closeRedis, createRedis } from '../../shared/redis/connection.js';
import { startEmbeddedRedis, type EmbeddedRedis } from '../../shared/redis/embedded.js';
import { startTestApi, type TestApi } from '../helpers/app.js';
import { runCliProcess } from '../helpers/cli.js';
import { waitFor } from '../helpers/market-wait.js';
import { accountServices, botCall, createTrader, TestPrices, type Trader } from '../helpers/trading.js';

/** everysec's promise: an fsync a second, so a crash loses at most the last second of writes, two when the disk stalls. */
const EVERYSEC_WINDOW_MS = 2_000;
const TRADERS = 6;

interface Ack {
  trader: Trader;
  clientOrderId: string;
  positionId: string;
  /** When the client had the 2xx, ms: the server answered no later. */
  at: number;
}

const processId = async (redis: RedisClient): Promise<number> => Number(/process_id:(\d+)/.exec(await redis.info('server'))?.[1]);

/**
 * A redis-server with its append-only file, SIGKILLed while traders open positions through the API, then restarted on
 * the same port from the same directory: what it replays is what the mode promised to keep.
 */
async function crashUnderLoad(mode: AppendFsync): Promise<{ acks: Ack[]; lost: Ack[]; killedAt: number; api: TestApi; url: string }> {
  const dataDir = mkdtempSync(join(tmpdir(), `pd-aof-${mode}-`));
  let redis: EmbeddedRedis = await startEmbeddedRedis({ dataDir, appendFsync: mode });
  const url = redis.url;
  const connection = createRedis(url);
  const api = await startTestApi(connection);
  cleanups.push(async () => {
    await api.close();
    await closeRedis(connection);
    await redis.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });
  await new TestPrices(connection).set({ BTCUSDT: 60_000 });
  const accounts = accountServices(connection);
  const traders = await Promise.all(Array.from({ length: TRADERS }, () => createTrader(accounts, { plan: 'business' })));
  const acks: Ack[] = [];
  let stopped = false;
  const load = traders.map(async (trader, t) => {
    for (let n = 0; !stopped; n += 1) {
      const clientOrderId = `d${t}-${n}`;
      const order = { symbol: 'BTC', side: 'long', margin_usd: 10, leverage: 2, client_order_id: clientOrderId };
      const answer = await botCall<{ position: { id: string } }>(api.url, trader, 'POST', '/open', order).catch(() => undefined);
      if (answer?.status === 200) acks.push({ trader, clientOrderId, positionId: answer.body.position.id, at: Date.now() });
    }
  });
  await waitFor(() => acks.length >= 300, 20_000, '300 acknowledged opens');
  const pid = await processId(connection);
  const killedAt = Date.now();
  process.kill(pid, 'SIGKILL');
  await waitFor(() => connection.status !== 'ready', 5_000, 'the connection to notice');
  stopped = true;
  await Promise.all(load);
  redis = await startEmbeddedRedis({ dataDir, appendFsync: mode, port: Number(new URL(url).port) });
  await waitFor(async () => (await connection.ping().catch(() => '')) === 'PONG', 10_000, 'the connection back');
  const held = new Set<string>();
  for (const trader of traders) {
    const positions = await waitFor(
      async () => {
        const answer = await botCall<{ positions: { id: string }[] }>(api.url, trader, 'GET', '/positions');
        return answer.status === 200 && answer.body.positions;
      },
      10_000,
      'the positions after the restart',
    );
    for (const position of positions) held.add(position.id);
  }
  return { acks, lost: acks.filter((ack) => !held.has(ack.positionId)), killedAt, api, url };
}

const cleanups: (() => Promise<void>)[] = [];

describe('durability: Redis SIGKILLed under a write load, restarted from its append-only file', function () {
  this.timeout(60_000);
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  it("'always' loses no acknowledged open, and a retried client_order_id returns the same position", async () => {
    const { acks, lost, api } = await crashUnderLoad('always');
    expect(lost.map((ack) => ack.clientOrderId)).to.deep.equal([]);
    // a client that lost the answer retries: the stored client_order_id answers with the position it opened
    for (const ack of acks.slice(-20)) {
      const order = { symbol: 'BTC', side: 'long', margin_usd: 10, leverage: 2, client_order_id: ack.clientOrderId };
      const retried = await botCall<{ position: { id: string }; idempotent: boolean }>(api.url, ack.trader, 'POST', '/open', order);
      expect(retried.status).to.equal(200);
      expect(retried.body).to.deep.include({ idempotent: true });
      expect(retried.body.position.id).to.equal(ack.positionId);
    }
  });

  it("'everysec' loses at most the opens acknowledged in the last two seconds, and the books still match their ledgers", async () => {
    const { acks, lost, killedAt, url } = await crashUnderLoad('everysec');
    expect(acks.length).to.be.at.least(300);
    const outsideWindow = lost.filter((ack) => ack.at < killedAt - EVERYSEC_WINDOW_MS);
    expect(outsideWindow.map((ack) => ack.clientOrderId)).to.deep.equal([]);
    // what was replayed is whole: each book's balance agrees with its trades (a script's writes are one AOF entry)
    const audit = await runCliProcess(['audit'], { REDIS_URL: url });
    expect(audit.code, audit.stdout + audit.stderr).to.equal(0);
  });
});
