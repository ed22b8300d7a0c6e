import { expect } from 'chai';
import type { RedisClient } from '../../shared/core/redis-client.js';
import type { ApiKeyResolver } from '../../shared/paper/api-key-resolver.js';
import { getJson, startTestApi, useApiFixture, type TestApi } from '../helpers/app.js';

interface ErrorEnvelope {
  ok: false;
  error: { code: string; message: string };
  ts: number;
}

function deferred(): { promise: Promise<void>; resolve(): void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe('public API conventions', () => {
  const fixture = useApiFixture({ PUBLIC_RATE_LIMIT: '100000' });
  let redis: RedisClient;
  let api: TestApi;
  before(() => {
    ({ redis, api } = fixture);
  });

  it('sends Access-Control-Allow-Origin: * on answers and errors, and answers preflight', async () => {
    const ok = await fetch(`${api.url}/api/v1/ping`, { headers: { origin: 'https://example.org' } });
    expect(ok.headers.get('access-control-allow-origin')).to.equal('*');
    const missing = await fetch(`${api.url}/api/v1/nope`);
    expect(missing.headers.get('access-control-allow-origin')).to.equal('*');
    const preflight = await fetch(`${api.url}/api/v1/calc/pnl`, {
      method: 'OPTIONS',
      headers: { origin: 'https://example.org', 'access-control-request-method': 'GET', 'access-control-request-headers': 'x-api-key' },
    });
    expect(preflight.status).to.equal(204);
    expect(preflight.headers.get('access-control-allow-origin')).to.equal('*');
    expect(preflight.headers.get('access-control-allow-methods')).to.contain('GET');
    expect(preflight.headers.get('access-control-allow-headers')?.toLowerCase()).to.contain('x-api-key');
    expect(ok.headers.get('x-content-type-options')).to.equal('nosniff');
  });

  it('answers an unknown route with 404 not_found in the envelope', async () => {
    const response = await getJson<ErrorEnvelope>(`${api.url}/api/v1/does-not-exist`);
    expect(response.status).to.equal(404);
    expect(response.body).to.include({ ok: false });
    expect(response.body.error.code).to.equal('not_found');
    expect(response.body.ts).to.be.a('number');
  });

  it('lists every route in ping, read from the router', async () => {
    const response = await getJson<{ data: { service: string; version: string; endpoints: string[]; rateLimit: { limit: number } } }>(
      `${api.url}/api/v1/ping`,
    );
    expect(response.body.data).to.include({ service: 'perpdesk', version: '2.9.1' });
    expect(response.body.data.rateLimit.limit).to.equal(100000);
    expect(response.body.data.endpoints).to.include.members([
      '/api/v1/ping',
      '/api/v1/calc/liquidation',
      '/api/pnl',
      '/api/openapi.json',
      '/docs',
      '/healthz',
      '/readyz',
      '/api/whsink/:token',
      'POST /api/whsink/:token',
      'POST /mcp',
    ]);
  });

  it('serves an OpenAPI 3.1 document of every route, with parameters from the validating schemas, and a docs page', async () => {
    const doc = await getJson<{
      openapi: string;
      paths: Record<string, Record<string, { parameters: { name: string; required: boolean }[] }>>;
    }>(`${api.url}/api/openapi.json`);
    expect(doc.body.openapi).to.equal('3.1.0');
    const ping = await getJson<{ data: { endpoints: string[] } }>(`${api.url}/api/v1/ping`);
    // the OpenAPI document covers the catalog: everything ping lists but the routes Express serves beside it
    const outsideCatalog = new Set(['/docs', '/healthz', '/readyz', '/api/whsink/:token']);
    const pinged = [...new Set(ping.body.data.endpoints.map((endpoint) => endpoint.replace(/^[A-Z]+ /, '')))].filter(
      (path) => !outsideCatalog.has(path),
    );
    expect(Object.keys(doc.body.paths).sort()).to.deep.equal(pinged.sort());
    const liq = doc.body.paths['/api/v1/calc/liquidation'].get.parameters;
    expect(liq.find((p) => p.name === 'leverage')).to.include({ required: true });
    expect(liq.find((p) => p.name === 'mmr')).to.include({ required: false });
    const page = await fetch(`${api.url}/docs`);
    expect(page.status).to.equal(200);
    expect(await page.text()).to.contain('/docs/docs.js');
    const script = await fetch(`${api.url}/docs/docs.js`);
    expect(script.headers.get('content-type')).to.contain('javascript');
  });

  it('answers /healthz and /readyz', async () => {
    expect((await fetch(`${api.url}/healthz`)).status).to.equal(200);
    const ready = await getJson<{ redis: string }>(`${api.url}/readyz`);
    expect(ready.status).to.equal(200);
    expect(ready.body.redis).to.equal('up');
  });

  it('answers a thrown bug with 500 internal in the envelope, without the stack', async () => {
    const failingKeys: ApiKeyResolver = {
      resolve: async () => {
        throw new Error('key store exploded at /secret/path.ts:12');
      },
    };
    const broken = await startTestApi(redis, {}, { apiKeys: failingKeys });
    try {
      const response = await getJson<ErrorEnvelope>(`${broken.url}/api/v1/ping`, { headers: { 'x-api-key': 'pd_x' } });
      expect(response.status).to.equal(500);
      expect(response.body.error).to.deep.equal({ code: 'internal', message: 'internal error' });
      expect(JSON.stringify(response.body)).to.not.contain('exploded');
    } finally {
      await broken.close();
    }
  });

  it('finishes an in-flight request during graceful shutdown, then stops', async () => {
    const entered = deferred();
    const release = deferred();
    const slowKeys: ApiKeyResolver = {
      resolve: async () => {
        entered.resolve();
        await release.promise;
        return { keyId: 'slow', plan: 'free', requestsPerMinute: 120 };
      },
    };
    const pod = await startTestApi(redis, {}, { apiKeys: slowKeys });
    const inFlight = getJson<{ ok: boolean }>(`${pod.url}/api/v1/calc/pnl?entry=1&exit=2&size=1`, { headers: { 'x-api-key': 'pd_slow' } });
    await entered.promise;
    let closed = false;
    const closing = pod.close().then(() => {
      closed = true;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(closed).to.equal(false);
    await fetch(`${pod.url}/healthz`).then(
      () => expect.fail('a closing server must not accept new connections'),
      () => undefined,
    );
    release.resolve();
    const response = await inFlight;
    expect(response.status).to.equal(200);
    expect(response.body.ok).to.equal(true);
    await closing;
    expect(closed).to.equal(true);
  });
});
