// @three-masters: a master failed over under load
import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import type { RedisClient } from '../../shared/core/redis-client.js';
import { LedgerReader } from '../../shared/paper/audit/ledger-reader.js';
import { closeRedis, clusterSeeds, createRedis } from '../../shared/redis/connection.js';
import { keys } from '../../shared/redis/keys.js';
import { startTestApi, type JsonResponse, type TestApi } from '../helpers/app.js';
import { startClusterRedis, type ClusterRedis, type ClusterReplica } from '../helpers/cluster-redis.js';
import { captureLog, type CapturedLog } from '../helpers/log-capture.js';
import { testRedisUrl } from '../helpers/redis.js';
import { accountServices, botCall, createTrader, postUntilDone, TestPrices, type TimedAnswer, type Trader } from '../helpers/trading.js';

type Body = {
  error?: string;
  idempotent?: boolean;
  position?: { id: string; margin_usd: number };
  closed?: { id: string; pnl_usd: number };
};
type AccountBody = { balance_usd: number; margin_in_use_usd: number; open_positions: number; closed_trades: number };

/**
 * A hop between a client and the API that forwards each request and cuts the client's connection when the API answers:
 * the answer is lost on the way back (a load balancer or a network dying mid-reply), after the API applied the request.
 * What the API answered is kept, for the test to compare the client's retry with.
 */
async function startLossyHop(target: string): Promise<{ url: string; dropped: JsonResponse<Body>[]; close(): Promise<void> }> {
  const dropped: JsonResponse<Body>[] = [];
  const server: Server = createServer((req, res) => {
    void (async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const headers = { 'content-type': String(req.headers['content-type']), 'x-api-key': String(req.headers['x-api-key']) };
      const answer = await fetch(`${target}${req.url}`, { method: req.method, headers, body: Buffer.concat(chunks) });
      dropped.push({ status: answer.status, headers: answer.headers, body: (await answer.json()) as Body });
      res.socket?.destroy();
    })();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    dropped,
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

/**
 * A client's open and close whose answers are lost, retried with the same client_order_id after the Redis master that
 * serves the account fails over to its replica (`redis-cli -p REPLICA cluster failover`), while the same account trades
 * on another book. Its own cluster (three masters, one replica added here): the suite's cluster has no replica, and a
 * failover on it would leave the other files a changed topology. It runs with `npm run test:cluster3` only: it does not
 * use the suite's Redis, so running it under every topology would repeat the same run.
 */
describe('Redis Cluster: a failover between a lost answer and its retry', function () {
  this.timeout(90_000);
  let cluster: ClusterRedis;
  let redis: RedisClient;
  let api: TestApi;
  let trader: Trader;
  let loaders: Trader[];
  let replica: ClusterReplica;
  let log: CapturedLog;

  before(async function () {
    if ((clusterSeeds(testRedisUrl())?.length ?? 0) < 3) this.skip();
    cluster = await startClusterRedis(3);
    redis = createRedis(cluster.url);
    // no feed runs: the price set below stays live for the whole test
    // the API's log is kept: a 5xx other than 503 names the error it logged
    log = captureLog();
    api = await startTestApi(
      redis,
      { REDIS_URL: cluster.url, PUBLIC_RATE_LIMIT: '1000000', PRICE_FRESH_MS: '600000' },
      { logger: log.logger },
    );
    await new TestPrices(redis).set({ BTCUSDT: 60_000 });
    const accounts = accountServices(redis);
    const email = `failover-${Date.now()}@example.org`;
    trader = await createTrader(accounts, { email });
    // the same account's other books: their keys share its hash tag, so they trade on the master that fails over
    loaders = [await createTrader(accounts, { email, book: 'load-1' }), await createTrader(accounts, { email, book: 'load-2' })];
    replica = await cluster.addReplica(Number(await redis.cluster('KEYSLOT', keys.bookOpen(trader.accountId, 'main'))));
  });
  after(async () => {
    await api?.close();
    if (redis) await closeRedis(redis);
    await cluster?.stop();
  });

  it('answers the retried open and close with their stored results, every request 2xx or 503 unavailable, the money moved once', async () => {
    const answers: TimedAnswer<Body>[] = [];
    const windows: { from: number; to: number }[] = [];
    let stopped = false;
    let opened = 0;
    let loading = loaders.length;
    // the account's other books open and close without pause, retrying what is retryable, through both failovers
    const load = loaders.map(async (loader, l) => {
      for (let n = 0; !stopped; n++) {
        const post = (path: string, body: Record<string, unknown>): Promise<JsonResponse<Body>> =>
          postUntilDone<Body>(api.url, loader, path, body, (answer) => answers.push(answer));
        const open = await post('/open', { symbol: 'BTC', side: 'long', margin_usd: 10, leverage: 5, client_order_id: `l${l}-o${n}` });
        if (open.status >= 300) break;
        opened++;
        if ((await post('/close', { id: open.body.position?.id, client_order_id: `l${l}-c${n}` })).status >= 300) break;
      }
    });
    // a loader that stopped (a refusal, or a thrown request) ends the wait below; Promise.all(load) then says why
    for (const loader of load) void loader.finally(() => (loading -= 1)).catch(() => undefined);
    const failOver = async (): Promise<void> => {
      // trading under way first, so the failover falls among requests
      const before = answers.length;
      while (answers.length < before + 20 && !stopped && loading > 0) await new Promise((resolve) => setTimeout(resolve, 10));
      const from = Date.now();
      const failedOver = await cluster.failOver(replica);
      replica = failedOver.replica;
      windows.push({ from, to: failedOver.promotedAt });
    };
    const account = async (): Promise<AccountBody> => (await botCall<AccountBody>(api.url, trader, 'GET', '/account')).body;
    const hop = await startLossyHop(api.url);
    /** Sends through the hop (the answer lost), fails the master over, retries the same body: answered idempotently. */
    const lostThenRetried = async (path: string, body: object) => {
      const seen = await botCall(hop.url, trader, 'POST', path, body).catch((error: Error) => error);
      expect(seen, 'the client saw no answer').to.be.instanceOf(Error);
      const lost = hop.dropped.at(-1);
      if (!lost) throw new Error('the hop forwarded nothing');
      expect(lost.status, 'the API had answered').to.equal(200);
      await failOver();
      const retried = await botCall<Body>(api.url, trader, 'POST', path, body);
      expect(retried.status, JSON.stringify(retried.body)).to.equal(200);
      expect(retried.body.idempotent).to.equal(true);
      return { retried, lost };
    };
    try {
      const start = await account();

      // the open's answer is lost; the master fails over; the client retries the same open
      const order = { symbol: 'BTC', side: 'long', margin_usd: 100, leverage: 10, client_order_id: 'failover-open' };
      const { retried: open, lost: lostOpen } = await lostThenRetried('/open', order);
      expect(open.body.position?.id).to.equal(lostOpen.body.position?.id);
      const positions = await botCall<{ positions: { id: string }[] }>(api.url, trader, 'GET', '/positions');
      expect(positions.body.positions.map((p) => p.id)).to.deep.equal([open.body.position?.id]);
      const held = await account();
      expect(held.margin_in_use_usd - start.margin_in_use_usd, 'margin taken once').to.equal(100);

      // the close's answer is lost; the new master fails back over to the old one; the client retries the same close
      const close = { id: open.body.position?.id, client_order_id: 'failover-close' };
      const { retried: closed, lost: lostClose } = await lostThenRetried('/close', close);
      expect(closed.body.closed).to.deep.include({ id: lostClose.body.closed?.id, pnl_usd: lostClose.body.closed?.pnl_usd });
      const end = await account();
      expect(end.open_positions).to.equal(0);
      expect(end.margin_in_use_usd).to.equal(start.margin_in_use_usd);
      expect(end.closed_trades - start.closed_trades, 'closed once').to.equal(1);
      expect(end.balance_usd, 'the close settled once').to.be.closeTo(start.balance_usd + (closed.body.closed?.pnl_usd ?? NaN), 0.005);
    } finally {
      stopped = true;
      await Promise.all(load);
      await hop.close();
    }

    // every answer was 2xx or 503 unavailable (retried unchanged): never a 500. Checked first: a refusal stops its loader
    const refused = answers.filter((answer) => answer.status >= 300);
    const errorsLogged = (): string => JSON.stringify(log.lines().filter((line) => Number(line.level) >= 50));
    for (const answer of refused)
      expect([answer.status, answer.body.error], `${JSON.stringify(answer.body)}, logged: ${errorsLogged()}`).to.deep.equal([
        503,
        'unavailable',
      ]);
    // requests were in flight during each failover (from the command until every node gave the replica the slot; the
    // master holds writes meanwhile)
    for (const { from, to } of windows) {
      const during = answers.filter((answer) => answer.answeredAt >= from && answer.sentAt <= to);
      expect(during.length, `requests in flight during the failover of ${to - from} ms`).to.be.at.least(2);
    }
    // each book adds up: every open the load got a 2xx for was closed once, the balance equals the trades' sum
    const ledger = new LedgerReader(redis);
    let trades = 0;
    for (const book of ['main', 'load-1', 'load-2']) {
      const audit = await ledger.auditBook({ accountId: trader.accountId, email: 'trader' }, book);
      expect(audit.differences, book).to.deep.equal([]);
      trades += audit.trades;
    }
    expect(trades).to.equal(opened + 1);
  });
});
