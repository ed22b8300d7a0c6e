// @three-masters: key-create and key-revoke through the e-mail index
import { expect } from 'chai';
import { freePort } from '../../shared/redis/embedded.js';
import { getJson } from '../helpers/app.js';
import { apiUrlFrom, DEMO_ENTRY, spawnService } from '../helpers/process.js';
import { testRedisUrl, useFreshRedis } from '../helpers/redis.js';

interface Demo {
  url: string;
  key: string;
  /** Every line the demo printed so far. */
  lines: string[];
  waitForLine(predicate: (line: string) => boolean): Promise<string>;
  stop(): Promise<void>;
}

async function startDemo(): Promise<Demo> {
  const service = spawnService(
    {
      PORT: '0',
      HOST: '127.0.0.1',
      REDIS_URL: testRedisUrl(),
      ROLE: 'all',
      MARKET_SOURCE: 'sim',
      SIM_PORT: String(await freePort()),
      LOG_LEVEL: 'info',
    },
    DEMO_ENTRY,
  );
  const url = apiUrlFrom(await service.waitForLine((line) => line.includes('api listening')));
  const line = await service.waitForLine((l) => l.includes('demo API key: '));
  const key = /pd_[0-9A-Za-z]{40}/.exec(line)?.[0];
  if (!key) throw new Error(`no key in ${line}`);
  return {
    url,
    key,
    lines: service.lines,
    waitForLine: (predicate) => service.waitForLine(predicate),
    stop: async () => {
      service.child.kill('SIGTERM');
      expect(await service.exit).to.equal(0);
    },
  };
}

describe('the demo prints a working API key and the queue dashboard', function () {
  this.timeout(60_000);
  // the demo starts from an empty Redis
  useFreshRedis();

  it('creates demo@perpdesk.local on Pro (webhooks) with a fresh key named demo at every start and revokes the previous one', async () => {
    const first = await startDemo();
    let firstKey: string;
    try {
      firstKey = first.key;
      const usage = await getJson<{ key_name: string; plan: string; used: { keys: number } }>(`${first.url}/api/bot/v1/usage`, {
        headers: { 'x-api-key': firstKey },
      });
      expect(usage.status).to.equal(200);
      expect(usage.body.key_name).to.equal('demo');
      expect(usage.body.plan).to.equal('pro');
      expect(usage.body.used.keys).to.equal(1);
      const hooks = await getJson<{ max: number }>(`${first.url}/api/bot/v1/webhooks`, { headers: { 'x-api-key': firstKey } });
      expect([hooks.status, hooks.body.max]).to.deep.equal([200, 3]);
    } finally {
      await first.stop();
    }
    const second = await startDemo();
    try {
      expect(second.key).to.not.equal(firstKey);
      const fresh = await getJson<{ key_name: string; used: { keys: number } }>(`${second.url}/api/bot/v1/usage`, {
        headers: { 'x-api-key': second.key },
      });
      expect(fresh.status).to.equal(200);
      expect(fresh.body.used.keys).to.equal(1);
      const old = await getJson<{ error: string }>(`${second.url}/api/bot/v1/usage`, { headers: { 'x-api-key': firstKey } });
      expect(old.status).to.equal(401);
      expect(old.body.error).to.equal('revoked_key');
    } finally {
      await second.stop();
    }
  });

  it('serves the queue dashboard behind a random operator token, printed once in the banner and in no log line', async () => {
    const demo = await startDemo();
    let banner: string | undefined;
    let token: string | undefined;
    try {
      banner = await demo.waitForLine((line) => line.includes('ops dashboard: '));
      let dashboard: string | undefined;
      [, dashboard, token] = /ops dashboard: (\S+) \(user ops, password (\S+)\)/.exec(banner ?? '') ?? [];
      expect(dashboard, banner).to.equal(`${demo.url}/ops/queues`);
      const page = await fetch(dashboard!, { headers: { authorization: `Basic ${Buffer.from(`ops:${token}`).toString('base64')}` } });
      expect(page.status).to.equal(200);
      expect(await page.text()).to.include('<div id="root">');
      expect((await fetch(dashboard!)).status).to.equal(401);
    } finally {
      await demo.stop();
    }
    // everything it printed, to its exit: the request log lines of the dashboard included
    expect(demo.lines.filter((line) => line.includes(token!))).to.deep.equal([banner]);
  });
});
