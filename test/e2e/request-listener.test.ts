import { createDomain } from '../../shared/domain.js';
import { expect } from 'chai';
import { createServer, get, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RedisClient } from '../../shared/core/redis-client.js';
import { createApp, type App } from '../../api/app.js';
import { configWith } from '../../shared/config.js';
import { createLogger } from '../../shared/core/logger.js';
import { closeRedis } from '../../shared/redis/connection.js';
import { freshRedis, testRedisUrl } from '../helpers/redis.js';
import { accountServices, createTrader, TestPrices, type Trader } from '../helpers/trading.js';

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

// their values differ from one request to the next whoever serves it (their presence is compared)
const VOLATILE_HEADERS = new Set(['date', 'x-request-id', 'x-ratelimit-remaining', 'x-ratelimit-reset']);

/** An answer with what changes between two identical requests left out (times, ids, remaining budget). */
function comparable(status: number, headers: Headers, text: string): Answer {
  const kept = Object.fromEntries([...headers.entries()].map(([name, value]) => [name, VOLATILE_HEADERS.has(name) ? '<varies>' : value]));
  const json = (headers.get('content-type') ?? '').startsWith('application/json');
  const body: unknown =
    json && text !== ''
      ? JSON.parse(text, (key, value: unknown) => (key === 'ts' || key === 'id' || key.endsWith('_ts') ? '<varies>' : value))
      : text;
  return { status, headers: kept, body };
}

async function listen(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<{ server: Server; url: string }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

describe('request listener: catalog routes served without Express, the same as Express serves them', () => {
  let redis: RedisClient;
  let built: App;
  let front: { server: Server; url: string };
  let expressOnly: { server: Server; url: string };
  let trader: Trader;
  /** The URLs that reached Express's app.handle. */
  const reachedExpress: string[] = [];

  before(async () => {
    redis = await freshRedis();
    const config = configWith({ REDIS_URL: testRedisUrl(), PUBLIC_RATE_LIMIT: '100000' });
    built = createApp({ domain: createDomain({ config, redis }), logger: createLogger(config) });
    // Express's app function calls app.handle for every request it gets
    const express = built.app as unknown as { handle(req: IncomingMessage, res: ServerResponse, next?: unknown): void };
    const handle = express.handle.bind(express);
    express.handle = (req, res, next) => {
      reachedExpress.push(req.url ?? '');
      handle(req, res, next);
    };
    front = await listen(built.listener);
    expressOnly = await listen(built.app);
    await new TestPrices(redis).set({ BTCUSDT: 65000 });
    trader = await createTrader(accountServices(redis));
  });
  after(async () => {
    for (const { server } of [front, expressOnly]) await new Promise((resolve) => server.close(resolve));
    await built.close();
    await closeRedis(redis);
  });
  beforeEach(() => {
    reachedExpress.length = 0;
  });

  const call = async (
    base: string,
    method: string,
    path: string,
    init: { headers?: Record<string, string>; body?: string } = {},
  ): Promise<Answer> => {
    const response = await fetch(`${base}${path}`, { method, headers: init.headers, body: init.body });
    return comparable(response.status, response.headers, await response.text());
  };

  it('serves a catalog route without Express, and hands every other request to it', async () => {
    expect((await call(front.url, 'GET', '/api/v1/calc/pnl?entry=100&exit=110&size=1000&side=long')).status).to.equal(200);
    expect(
      (await call(front.url, 'POST', '/api/bot/v1/open', { headers: { 'content-type': 'application/json' }, body: '{}' })).status,
    ).to.equal(401);
    expect(reachedExpress).to.deep.equal([]);
    const others = ['/api/v1/nope', '/healthz', '/docs', '/api/whsink/abcdefghijklmnopqrst'];
    for (const path of others) await call(front.url, 'GET', path);
    await call(front.url, 'OPTIONS', '/api/v1/calc/pnl');
    // a method the route does not have is Express's to answer (404)
    expect((await call(front.url, 'POST', '/api/v1/calc/pnl')).status).to.equal(404);
    expect(reachedExpress).to.deep.equal([...others, '/api/v1/calc/pnl', '/api/v1/calc/pnl']);
  });

  it('answers every kind of request exactly as Express alone does: status, headers and body', async () => {
    const key = { 'x-api-key': trader.apiKey, 'content-type': 'application/json' };
    const requests: [string, string, { headers?: Record<string, string>; body?: string }?][] = [
      ['GET', '/api/v1/calc/pnl?entry=100&exit=110&size=1000&side=long'],
      ['GET', '/api/v1/calc/pnl?entry=100'],
      ['GET', '/api/v1/calc/pnl?entry=100&entry=101&exit=110&size=1000&side=long'],
      ['HEAD', '/api/v1/ping'],
      ['GET', '/api/v1/price?symbol=BTC'],
      ['GET', '/api/bot/v1/price?symbol=nope'],
      ['POST', '/api/bot/v1/open', { headers: { 'content-type': 'application/json' }, body: '{}' }],
      ['POST', '/api/bot/v2/open', { headers: { ...key, 'x-api-key': 'pd_live_not-a-key' }, body: '{}' }],
      ['POST', '/api/bot/v1/open', { headers: key, body: '{"symbol": ' }],
      [
        'POST',
        '/api/bot/v2/open',
        { headers: key, body: JSON.stringify({ symbol: 'BTC', side: 'long', margin_usd: 100, leverage: 2000 }) },
      ],
      [
        'POST',
        '/api/bot/v1/open',
        { headers: key, body: JSON.stringify({ symbol: 'BTC', side: 'long', margin_usd: 100, leverage: 10, dry_run: true }) },
      ],
      ['GET', `/api/bot/v1/positions?api_key=${encodeURIComponent(trader.apiKey)}`],
      ['GET', '/api/bot/v2/stream'],
    ];
    for (const [method, path, init] of requests) {
      const viaFront = await call(front.url, method, path, init);
      const viaExpress = await call(expressOnly.url, method, path, init);
      expect(viaFront, `${method} ${path}`).to.deep.equal(viaExpress);
    }
    // only the Express-only server's requests reached Express
    expect(reachedExpress).to.have.length(requests.length);
  });

  it('sends a URL that Express would parse in full (here: with a fragment) to Express, which still serves the route', async () => {
    // fetch drops a fragment before sending: a plain request sends the path as written
    const path = '/api/v1/calc/pnl?entry=100&exit=110&size=1000&side=long#here';
    const answer = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      get(`${front.url}${path}`, { path }, (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => (text += chunk.toString()));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
      }).on('error', reject);
    });
    expect(answer.status).to.equal(200);
    expect((JSON.parse(answer.text) as { ok: boolean }).ok).to.equal(true);
    expect(reachedExpress).to.deep.equal([path]);
  });

  it('answers what the route or the chain throws through the same error handler (a bot v1 path gets the flat body)', async () => {
    const viaFront = await call(front.url, 'POST', '/api/bot/v1/close', {
      headers: { 'x-api-key': trader.apiKey, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(viaFront.status).to.equal(400);
    expect(viaFront.body).to.include({ error: 'id_required' });
    expect(viaFront.headers['x-content-type-options']).to.equal('nosniff');
    expect(viaFront.headers['access-control-allow-origin']).to.equal('*');
    expect(viaFront.headers['x-ratelimit-scope']).to.equal('key');
    expect(reachedExpress).to.deep.equal([]);
  });
});
