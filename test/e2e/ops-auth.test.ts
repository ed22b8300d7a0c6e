import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { configWith, ConfigError } from '../../shared/config.js';
import type { RedisClient } from '../../shared/core/redis-client.js';
import { QUEUE_DASHBOARD_CONNECTION } from '../../api/ops/queue-dashboard.js';
import { getJson, startTestApi, useApiFixture, type JsonResponse } from '../helpers/app.js';
import { waitFor } from '../helpers/market-wait.js';
import { useFreshRedis } from '../helpers/redis.js';
import { captureLog } from '../helpers/log-capture.js';

interface ErrorBody {
  ok: false;
  error: { code: string; message: string };
  ts: number;
}

const basic = (user: string, password: string): RequestInit => ({
  headers: { authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` },
});
const bearer = (token: string): RequestInit => ({ headers: { authorization: `Bearer ${token}` } });

describe('operator auth: OPS_TOKEN in front of every /ops route', function () {
  this.timeout(30_000);

  describe('with OPS_TOKEN set', () => {
    const token = randomBytes(24).toString('base64url');
    const log = captureLog();
    const fixture = useApiFixture({ OPS_TOKEN: token, LOG_LEVEL: 'info' }, { logger: log.logger });
    const dashboard = (): string => `${fixture.api.url}/ops/queues`;

    async function expectRefused(init: RequestInit, why: string): Promise<void> {
      const refused = await getJson<ErrorBody>(dashboard(), init);
      expect(refused.status, why).to.equal(401);
      expect(refused.headers.get('www-authenticate'), why).to.equal('Basic realm="perpdesk ops"');
      expect(refused.body.error.code, why).to.equal('ops_unauthorized');
      expect(JSON.stringify(refused.body), why).not.to.include(token);
    }

    it('serves the dashboard to the token as a bearer token or as HTTP basic with user ops', async () => {
      for (const [how, init] of [
        ['bearer', bearer(token)],
        ['basic', basic('ops', token)],
        ['bearer, scheme in lower case', { headers: { authorization: `bearer ${token}` } }],
      ] as const) {
        const response = await fetch(dashboard(), init);
        expect(response.status, how).to.equal(200);
        expect(response.headers.get('content-type'), how).to.match(/^text\/html/);
        expect(await response.text(), how).to.include('<div id="root">');
      }
    });

    it('refuses no credentials, a wrong token, a wrong user and other schemes with 401 and a basic challenge', async () => {
      const sameLength = [...token].map((c, i) => (i === token.length - 1 ? (c === 'a' ? 'b' : 'a') : c)).join('');
      await expectRefused({}, 'no credentials');
      await expectRefused(bearer(sameLength), 'bearer, one character off');
      await expectRefused(bearer(`${token}x`), 'bearer, one character more');
      await expectRefused(bearer(token.slice(0, -1)), 'bearer, one character less');
      await expectRefused(basic('ops', sameLength), 'basic, wrong password');
      await expectRefused(basic('admin', token), 'basic, the token under another user');
      await expectRefused(basic('', token), 'basic, no user');
      await expectRefused({ headers: { authorization: `Basic ${Buffer.from(token).toString('base64')}` } }, 'basic, no colon');
      await expectRefused({ headers: { authorization: `Token ${token}` } }, 'another scheme');
      await expectRefused({ headers: { 'x-api-key': token } }, 'the token as an API key');
    });

    it('asks for the token on any /ops path before saying whether it exists', async () => {
      expect((await getJson(`${fixture.api.url}/ops/elsewhere`)).status).to.equal(401);
      const known = await getJson<ErrorBody>(`${fixture.api.url}/ops/elsewhere`, bearer(token));
      expect(known.status).to.equal(404);
      expect(known.body.error.code).to.equal('not_found');
    });

    it("refuses a change sent by another site's page with the browser's credentials, and takes the dashboard's own", async () => {
      const pause = `${dashboard()}/api/queues/orders/pause`;
      const resume = `${dashboard()}/api/queues/orders/resume`;
      const credentials = basic('ops', token).headers as Record<string, string>;
      for (const [how, headers] of [
        ['Origin of another site', { origin: 'http://evil.example' }],
        ['Sec-Fetch-Site cross-site', { 'sec-fetch-site': 'cross-site' }],
        ['Sec-Fetch-Site same-site', { 'sec-fetch-site': 'same-site', origin: 'http://sub.127.0.0.1' }],
      ] as const) {
        const refused = await getJson<ErrorBody>(pause, { method: 'PUT', headers: { ...credentials, ...headers } });
        expect(refused.status, how).to.equal(403);
        expect(refused.body.error.code, how).to.equal('ops_cross_site');
      }
      for (const own of [
        { ...credentials, origin: fixture.api.url, 'sec-fetch-site': 'same-origin' },
        // behind a proxy that rewrites Host, the browser still calls its own page's request same-origin
        { ...credentials, origin: 'https://ops.example', 'sec-fetch-site': 'same-origin' },
        // a browser that sends no Sec-Fetch-Site: the Origin decides
        { ...credentials, origin: fixture.api.url },
      ]) {
        expect((await fetch(pause, { method: 'PUT', headers: own })).status).to.equal(200);
        expect((await fetch(resume, { method: 'PUT', headers: own })).status).to.equal(200);
      }
      // a script with the bearer token names no origin
      expect((await fetch(pause, { method: 'PUT', ...bearer(token) })).status).to.equal(200);
      expect((await fetch(resume, { method: 'PUT', ...bearer(token) })).status).to.equal(200);
    });

    it('never writes the token to the log', async () => {
      await getJson(dashboard(), bearer(`${token}x`));
      await log.next((line) => line.msg === 'request completed' && line.statusCode === 401);
      expect(log.text()).to.include('/ops/queues');
      expect(log.text()).not.to.include(token);
    });
  });

  describe('with OPS_TOKEN unset', () => {
    const fixture = useApiFixture();
    const withoutTs = ({ ts: _ts, ...rest }: ErrorBody): Omit<ErrorBody, 'ts'> => rest;
    const sameAsUnknown = (path: string, response: JsonResponse<ErrorBody>, unknown: JsonResponse<ErrorBody>): void => {
      expect(response.status, path).to.equal(404);
      expect(response.headers.get('www-authenticate'), path).to.equal(null);
      // the unknown path's answer, word for word but for the path it names
      expect(withoutTs(response.body), path).to.deep.equal(withoutTs(unknown.body));
    };

    it('answers every /ops path, with or without credentials, with the 404 of an unknown path', async () => {
      for (const path of ['/ops', '/ops/', '/ops/queues', '/ops/queues/api/queues', '/ops/metrics']) {
        const unknown = await getJson<ErrorBody>(`${fixture.api.url}/nothing${path}`);
        const nothing = { ...unknown.body, error: { ...unknown.body.error, message: `no route for GET ${path}` } };
        sameAsUnknown(path, await getJson<ErrorBody>(`${fixture.api.url}${path}`), { ...unknown, body: nothing });
        sameAsUnknown(path, await getJson<ErrorBody>(`${fixture.api.url}${path}`, basic('ops', 'x'.repeat(32))), {
          ...unknown,
          body: nothing,
        });
      }
    });
  });

  it('refuses an OPS_TOKEN shorter than 16 characters or with whitespace at start-up', () => {
    expect(() => configWith({ OPS_TOKEN: 'short' })).to.throw(ConfigError, /^OPS_TOKEN: /);
    expect(() => configWith({ OPS_TOKEN: 'sixteen chars ok' })).to.throw(ConfigError, /^OPS_TOKEN: must not contain whitespace/);
    expect(configWith({ OPS_TOKEN: 'x'.repeat(16) }).opsToken).to.equal('x'.repeat(16));
    expect(configWith({}).opsToken).to.equal(undefined);
  });

  describe("the dashboard's Redis connection", () => {
    let redis: RedisClient;
    useFreshRedis((connection) => (redis = connection));
    const dashboardClients = async (): Promise<number> =>
      String(await redis.client('LIST'))
        .split('\n')
        .filter((line) => line.includes(` name=${QUEUE_DASHBOARD_CONNECTION} `)).length;

    it('is opened by the first dashboard request, not at start, shared by the later ones, and closed with the app', async () => {
      const token = randomBytes(24).toString('base64url');
      const api = await startTestApi(redis, { OPS_TOKEN: token });
      try {
        expect(await dashboardClients(), 'at start').to.equal(0);
        expect((await fetch(`${api.url}/ops/queues/api/queues`, bearer(token))).status).to.equal(200);
        expect((await fetch(`${api.url}/ops/queues/api/queues`, bearer(token))).status).to.equal(200);
        expect(await dashboardClients(), 'after two requests').to.equal(1);
      } finally {
        await api.close();
      }
      // the server drops a client just after answering its QUIT
      await waitFor(async () => (await dashboardClients()) === 0, 2_000, 'the dashboard connection closed');
    });

    it('is never opened without OPS_TOKEN', async () => {
      const api = await startTestApi(redis);
      try {
        expect((await fetch(`${api.url}/ops/queues/api/queues`, bearer('x'.repeat(32)))).status).to.equal(404);
        expect(await dashboardClients()).to.equal(0);
      } finally {
        await api.close();
      }
    });
  });
});
