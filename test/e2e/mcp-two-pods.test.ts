// @three-masters: two pods sharing one client session through Redis
import { expect } from 'chai';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { closeRedis } from '../../shared/redis/connection.js';
import { startTestApi, type TestApi } from '../helpers/app.js';
import { freshRedis } from '../helpers/redis.js';
import { accountServices, createTrader, TestPrices, type Trader } from '../helpers/trading.js';
import type { RedisClient } from '../../shared/core/redis-client.js';

/**
 * Two API pods on one Redis, as behind a load balancer without session affinity: one MCP client's
 * requests (initialize included) alternate between them, and each pod answers from Redis alone.
 */
describe('MCP on two API pods: one client, calls alternating between them', function () {
  this.timeout(30_000);
  let redis: RedisClient;
  const pods: TestApi[] = [];
  let trader: Trader;

  before(async () => {
    redis = await freshRedis();
    for (let i = 0; i < 2; i++) pods.push(await startTestApi(redis, { PUBLIC_RATE_LIMIT: '1000000' }));
    await new TestPrices(redis).set({ BTCUSDT: 65000 });
    trader = await createTrader(accountServices(redis), { plan: 'pro' });
  });
  after(async () => {
    await Promise.all(pods.map((pod) => pod.close()));
    await closeRedis(redis);
  });

  it('opens on one pod, reads and closes on the other, with the same client session', async () => {
    const seen: string[] = [];
    let turn = 0;
    // the load balancer: each HTTP request of the client goes to the next pod
    const roundRobin = (input: string | URL, init?: RequestInit): Promise<Response> => {
      const pod = pods[turn++ % pods.length];
      seen.push(pod.url);
      const url = new URL(String(input));
      return fetch(`${pod.url}${url.pathname}`, init);
    };
    const client = new Client({ name: 'two-pods', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${pods[0].url}/mcp`), {
        requestInit: { headers: { 'X-API-Key': trader.apiKey } },
        fetch: roundRobin,
      }),
    );
    const call = async (name: string, args: Record<string, unknown> = {}) => {
      const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
      expect(result.isError, JSON.stringify(result.content)).to.not.equal(true);
      return result.structuredContent as Record<string, unknown> & {
        position?: { id: string; status: string };
        positions?: { id: string }[];
      };
    };
    const opened = await call('paper_open', { symbol: 'BTC', side: 'long', margin_usd: 100, leverage: 10, client_order_id: 'pods-1' });
    const again = await call('paper_open', { symbol: 'BTC', side: 'long', margin_usd: 100, leverage: 10, client_order_id: 'pods-1' });
    expect(again.idempotent).to.equal(true);
    expect(again.position?.id).to.equal(opened.position?.id);
    expect((await call('paper_positions')).positions?.map((p) => p.id)).to.deep.equal([opened.position?.id]);
    expect((await call('paper_close', { id: opened.position?.id })).position?.status).to.equal('closed');
    expect((await call('paper_positions')).positions).to.deep.equal([]);
    await client.close();
    // initialize, initialized and five calls: both pods answered, in turn
    expect(new Set(seen)).to.have.property('size', 2);
    expect(seen.filter((url, i) => i > 0 && url === seen[i - 1])).to.deep.equal([]);
  });
});
