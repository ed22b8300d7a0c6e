// @three-masters: a slot migrated under load (MOVED, ASK, TRYAGAIN)
import { expect } from 'chai';
import { Redis } from 'ioredis';
import type { RedisClient } from '../../shared/core/redis-client.js';
import { LedgerReader } from '../../shared/paper/audit/ledger-reader.js';
import { closeRedis, clusterSeeds } from '../../shared/redis/connection.js';
import { keys } from '../../shared/redis/keys.js';
import { startTestApi, type JsonResponse, type TestApi } from '../helpers/app.js';
import { moveSlot } from '../helpers/cluster-redis.js';
import { freshRedis, testRedisUrl } from '../helpers/redis.js';
import {
  accountServices,
  botCall,
  createTrader,
  postUntilDone,
  RETRYABLE,
  TestPrices,
  type TimedAnswer,
  type Trader,
} from '../helpers/trading.js';

type Body = { error?: string; position?: { id: string }; closed?: { id: string } };

/**
 * One account trades (open with a client_order_id, then close, retried on a retryable answer) while the hash slot of
 * all its keys moves to another master, its keys a few at a time: ioredis follows the ASK redirections and retries the
 * scripts answered TRYAGAIN (keys split between the nodes). Runs on `npm run test:cluster3` (three masters).
 */
describe('Redis Cluster: a slot migration under trading', function () {
  this.timeout(90_000);
  let redis: RedisClient;
  let api: TestApi;
  let trader: Trader;

  before(async function () {
    if ((clusterSeeds(testRedisUrl())?.length ?? 0) < 3) this.skip();
    redis = await freshRedis();
    api = await startTestApi(redis, { PUBLIC_RATE_LIMIT: '1000000' });
    await new TestPrices(redis).set({ BTCUSDT: 60000, ETHUSDT: 3000 });
    trader = await createTrader(accountServices(redis));
  });
  after(async () => {
    await api?.close();
    if (redis) await closeRedis(redis);
  });

  it('answers every request 2xx or a named retryable error, and the book adds up after', async () => {
    const answers: TimedAnswer<Body>[] = [];
    let stopped = false;
    const untilDone = (path: string, body: Record<string, unknown>): Promise<JsonResponse<Body>> =>
      postUntilDone<Body>(api.url, trader, path, body, (answer) => answers.push(answer));
    let opened = 0;
    const trade = async (worker: number): Promise<void> => {
      for (let n = 0; !stopped; n++) {
        const symbol = n % 2 === 0 ? 'BTC' : 'ETH';
        const open = await untilDone('/open', { symbol, side: 'long', margin_usd: 10, leverage: 5, client_order_id: `w${worker}-${n}` });
        // a refusal other than a retryable one ends the run (asserted below)
        if (open.status >= 300) break;
        opened++;
        const id = open.body.position?.id;
        // with a client_order_id, as a client that retries must send it: a close whose answer was lost (503 after the
        // script ran) answers its stored result again instead of already_closed
        if ((await untilDone('/close', { id, client_order_id: `c${worker}-${n}` })).status >= 300) break;
      }
      stopped = true;
    };
    const workers = [0, 1, 2, 3].map(trade);

    const slot = Number(await redis.cluster('KEYSLOT', keys.bookOpen(trader.accountId, 'main')));
    // some trades first, so the slot holds the account's books, trades and outbox when it moves
    while (opened < 8 && !stopped) await new Promise((resolve) => setTimeout(resolve, 10));
    const migrationStart = Date.now();
    const moved = await moveSlot(testRedisUrl(), slot, { batch: 1, pauseMs: 100 });
    const migrationEnd = Date.now();
    const after = opened;
    while (opened < after + 8 && !stopped) await new Promise((resolve) => setTimeout(resolve, 10));
    stopped = true;
    await Promise.all(workers);

    expect(moved.keys, 'keys moved with the slot').to.be.at.least(4);
    const duringMigration = answers.filter((answer) => answer.sentAt >= migrationStart && answer.answeredAt <= migrationEnd);
    expect(duringMigration.length, 'requests answered while the slot was moving').to.be.at.least(5);
    for (const answer of answers) {
      if (answer.status < 300) continue;
      expect(RETRYABLE.get(answer.body.error ?? ''), JSON.stringify(answer.body)).to.equal(answer.status);
    }
    // every open answered 2xx was closed once: nothing open, one closed trade each, balance equal to the trades' sum
    const positions = await botCall<{ positions: unknown[] }>(api.url, trader, 'GET', '/positions');
    expect(positions.body.positions).to.deep.equal([]);
    const audit = await new LedgerReader(redis).auditBook({ accountId: trader.accountId, email: 'trader' }, 'main');
    expect(audit.trades).to.equal(opened);
    expect(audit.differences).to.deep.equal([]);
    // the account's keys are all on the new master now
    const [source, target] = [new Redis(moved.from, '127.0.0.1'), new Redis(moved.to, '127.0.0.1')];
    try {
      expect(await source.cluster('COUNTKEYSINSLOT', slot)).to.equal(0);
      expect(await target.cluster('COUNTKEYSINSLOT', slot)).to.be.at.least(moved.keys);
    } finally {
      await closeRedis(source, target);
    }
  });
});
