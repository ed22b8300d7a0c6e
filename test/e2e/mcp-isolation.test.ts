import { expect } from 'chai';
import { useApiFixture } from '../helpers/app.js';
import { createTrader, useTradingFixture } from '../helpers/trading.js';

interface RpcAnswer {
  id: string | number | null;
  result?: { structuredContent?: { price?: number } };
  error?: { code: number; message: string; data?: { code: string; retry_after?: number } };
}

const rpcPost = (base: string, body: unknown, headers: Record<string, string> = {}, signal?: AbortSignal) =>
  fetch(`${base}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify(body),
    signal,
  });

const cancel = (requestId: string | number) => ({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId } });
const getPrice = (id: string | number, symbol = 'BTC') => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'get_price', arguments: { symbol } },
});

describe('MCP at /mcp: one client never touches another’s request', function () {
  this.timeout(120_000);
  const stack = useTradingFixture({ BTCUSDT: 65000, ETHUSDT: 3500 });

  it('answers every call of 8 clients while another client floods cancellations naming every id it can guess', async () => {
    const [trader, attacker] = await Promise.all([createTrader(stack.mod, { plan: 'pro' }), createTrader(stack.mod, { plan: 'pro' })]);
    // the requests sent so far: a pod that counted its private ids up would be near this number
    let requests = 0;
    let calling = true;
    let sent = 0;
    const flood = async (headers: Record<string, string>) => {
      while (calling) {
        // the ids around the count (a counter's private ids), the clients' own ids among them
        const from = Math.max(0, requests - 5);
        await rpcPost(
          stack.api.url,
          Array.from({ length: 10 }, (_, i) => cancel(from + i)),
          headers,
        );
        sent += 10;
      }
    };
    const attacks = [flood({}), flood({ 'X-API-Key': attacker.apiKey })];
    // 8 clients, half keyless, half on one key, each calling one after another; a dropped answer is never answered: a timeout
    // (10 s: well above a loaded machine's slowest answer)
    const client = async (c: number): Promise<unknown[]> => {
      const prices: unknown[] = [];
      for (let i = 0; i < 15; i++) {
        requests += 1;
        const headers: Record<string, string> = c % 2 ? { 'x-api-key': trader.apiKey } : {};
        const answer = await rpcPost(stack.api.url, getPrice(i), headers, AbortSignal.timeout(10_000)).then(
          async (r) => ((await r.json()) as RpcAnswer).result?.structuredContent?.price,
          String,
        );
        prices.push(answer);
      }
      return prices;
    };
    const prices = (await Promise.all(Array.from({ length: 8 }, (_, c) => client(c)))).flat();
    calling = false;
    await Promise.all(attacks);
    expect(sent).to.be.above(100);
    expect(prices).to.have.length(120);
    expect(prices.filter((price) => price !== 65000)).to.deep.equal([]);
  });

  it('lets a client cancel its own request: the POST answers at once with the cancellation, under the client’s id', async () => {
    // keyless: the cancellation reaches the requests of its own HTTP request only
    const keyless = await rpcPost(stack.api.url, [getPrice('mine'), cancel('mine')]);
    expect(keyless.status).to.equal(200);
    const answers = (await keyless.json()) as RpcAnswer[];
    expect(answers.map((a) => [a.id, a.error?.code])).to.deep.equal([['mine', -32800]]);
  });

  it('drops a cancellation naming another key’s request id: that request is answered', async () => {
    const [victim, stranger] = await Promise.all([createTrader(stack.mod, { plan: 'pro' }), createTrader(stack.mod, { plan: 'pro' })]);
    const answers = await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        const call = rpcPost(stack.api.url, getPrice(i, i % 2 ? 'ETH' : 'BTC'), { 'x-api-key': victim.apiKey });
        // the stranger names the victim's ids as the victim sends them, on its own key and on none
        await Promise.all([rpcPost(stack.api.url, cancel(i), { 'x-api-key': stranger.apiKey }), rpcPost(stack.api.url, cancel(i))]);
        return (await call).json() as Promise<RpcAnswer>;
      }),
    );
    expect(answers.map((a) => [a.id, a.result?.structuredContent?.price])).to.deep.equal(
      Array.from({ length: 20 }, (_, i) => [i, i % 2 ? 3500 : 65000]),
    );
  });
});

describe('MCP at /mcp: every message metered, batches small', function () {
  this.timeout(30_000);
  // a keyless budget of 12 a minute for the client address
  const stack = useApiFixture({ PUBLIC_RATE_LIMIT: '12' });
  const ping = (id: number) => ({ jsonrpc: '2.0', id, method: 'ping' });

  it('meters initialize, tools/list, ping and notifications like keyless calls, each element of a batch; 429 once all are refused', async () => {
    const tooBig = await rpcPost(
      stack.api.url,
      Array.from({ length: 11 }, (_, i) => ping(i)),
    );
    expect([tooBig.status, ((await tooBig.json()) as RpcAnswer).error?.code]).to.deep.equal([400, -32600]);
    const ten = await rpcPost(
      stack.api.url,
      Array.from({ length: 10 }, (_, i) => ping(i)),
    );
    expect(ten.status).to.equal(200);
    expect(ten.headers.get('x-ratelimit-limit')).to.equal('12');
    expect(((await ten.json()) as RpcAnswer[]).every((a) => a.error === undefined)).to.equal(true);
    // two left: the third element of the batch is refused, the others answered
    const three = await rpcPost(stack.api.url, [ping(1), { jsonrpc: '2.0', id: 2, method: 'tools/list' }, ping(3)]);
    expect(three.status).to.equal(200);
    const answers = (await three.json()) as RpcAnswer[];
    expect(answers.filter((a) => a.error === undefined)).to.have.length(2);
    expect(answers.filter((a) => a.error?.data?.code === 'rate_limited')).to.have.length(1);
    const initialize = {
      jsonrpc: '2.0',
      id: 'init',
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'meter-test', version: '1' } },
    };
    for (const body of [initialize, { jsonrpc: '2.0', id: 'list', method: 'tools/list' }, ping(9)]) {
      const refused = await rpcPost(stack.api.url, body);
      const answer = (await refused.json()) as RpcAnswer;
      expect([refused.status, answer.id, answer.error?.data?.code], JSON.stringify(body)).to.deep.equal([429, body.id, 'rate_limited']);
      expect(Number(refused.headers.get('retry-after'))).to.be.within(1, 60);
    }
    const notification = await rpcPost(stack.api.url, { jsonrpc: '2.0', method: 'notifications/initialized' });
    expect(notification.status).to.equal(429);
  });
});
