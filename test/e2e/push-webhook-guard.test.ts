import { expect } from 'chai';
import type { RedisClient } from '../../shared/core/redis-client.js';
import type { AccountServices } from '../../shared/paper/accounts/account-services.js';
import { WebhookSender } from '../../shared/push/webhook-sender.js';
import { closeRedis } from '../../shared/redis/connection.js';
import { startTestApi, type TestApi } from '../helpers/app.js';
import { startReceiver, type TestReceiver } from '../helpers/push.js';
import { freshRedis } from '../helpers/redis.js';
import { accountServices, botCall, createTrader, type Trader } from '../helpers/trading.js';

describe('push: where a webhook may point (SSRF guard)', function () {
  this.timeout(30_000);
  let redis: RedisClient;
  let strict: TestApi;
  let lenient: TestApi;
  let receiver: TestReceiver;
  let mod: AccountServices;
  let trader: Trader;

  before(async () => {
    redis = await freshRedis();
    strict = await startTestApi(redis, { PUBLIC_RATE_LIMIT: '1000000' });
    lenient = await startTestApi(redis, { PUBLIC_RATE_LIMIT: '1000000', WEBHOOK_ALLOW_PRIVATE: 'true' });
    receiver = await startReceiver();
    mod = accountServices(redis);
    trader = await createTrader(mod, { plan: 'business' });
  });
  after(async () => {
    await strict.close();
    await lenient.close();
    await receiver.close();
    await closeRedis(redis);
  });

  const add = (api: TestApi, url: string) =>
    botCall<{ error?: string; message?: string }>(api.url, trader, 'POST', '/webhooks', { act: 'add', url });

  it('refuses loopback, private, link-local and metadata addresses, names that resolve to them, http and credentials', async () => {
    const refused = [
      'https://127.0.0.1/hook',
      'https://127.1.2.3:8443/hook',
      'https://10.0.0.8/hook',
      'https://172.16.5.4/hook',
      'https://192.168.1.1/hook',
      'https://100.64.0.1/hook',
      'https://169.254.169.254/latest/meta-data/',
      'https://0.0.0.0/hook',
      'https://[::1]/hook',
      'https://[::ffff:127.0.0.1]/hook',
      'https://[::ffff:a9fe:a9fe]/hook',
      'https://[::127.0.0.1]/hook',
      'https://[2002:7f00:1::1]/hook',
      'https://[64:ff9b::7f00:1]/hook',
      'https://[2001:0:7f00:1::1]/hook',
      'https://[fd00::1]/hook',
      'https://[fe80::1]/hook',
      'https://2130706433/hook',
      'https://0x7f.0.0.1/hook',
      'https://localhost/hook',
      'https://localhost./hook',
      'https://no-such-host.invalid/hook',
      'http://example.org/hook',
      'https://user:secret@example.org/hook',
      `https://example.org/${'x'.repeat(2100)}`,
      'not a url',
      'javascript:alert(1)',
    ];
    for (const url of refused) {
      const r = await add(strict, url);
      expect(r.status, url).to.equal(400);
      expect(r.body.error, url).to.equal('bad_url');
    }
    const list = await botCall<{ webhooks: unknown[] }>(strict.url, trader, 'GET', '/webhooks');
    expect(list.body.webhooks).to.have.length(0);
  });

  it('with WEBHOOK_ALLOW_PRIVATE: http and loopback are allowed; link-local, metadata and 6to4 or IPv4-compatible forms never', async () => {
    expect((await add(lenient, `${receiver.url}/hook`)).status).to.equal(200);
    for (const url of [
      'http://169.254.169.254/latest/meta-data/',
      'http://[fe80::1]/',
      'http://[::ffff:169.254.169.254]/',
      'http://100.100.100.200/',
      'http://0.0.0.0:80/',
      'http://[::127.0.0.1]/',
      'http://[2002:7f00:1::1]/',
    ]) {
      const r = await add(lenient, url);
      expect(r.body.error, url).to.equal('bad_url');
    }
  });

  it('checks the resolved address again at delivery: a name that now resolves to loopback is refused before connecting', async () => {
    const port = new URL(receiver.url).port;
    const before = receiver.received.length;
    const rebinding = new WebhookSender({
      allowPrivate: false,
      timeoutMs: 2_000,
      resolve: async () => [{ address: '127.0.0.1', family: 4 }],
    });
    try {
      const result = await rebinding.send(`https://rebind.example:${port}/hook`, '{}', { 'content-type': 'application/json' });
      expect(result).to.include({ ok: false, status: null });
      expect(result.error).to.match(/^refused: rebind\.example resolves to 127\.0\.0\.1 is a loopback or private address/);
    } finally {
      await rebinding.close();
    }
    const literal = new WebhookSender({ allowPrivate: false, timeoutMs: 2_000 });
    try {
      expect((await literal.send(`https://127.0.0.1:${port}/hook`, '{}', {})).error).to.match(/^refused: /);
      expect((await literal.send(`http://example.org/hook`, '{}', {})).error).to.equal('refused: the URL must be https');
    } finally {
      await literal.close();
    }
    expect(receiver.received.length).to.equal(before);
  });

  it('never follows a redirect: a 3xx is a failed delivery', async () => {
    receiver.answer = () => 307;
    const sender = new WebhookSender({ allowPrivate: true, timeoutMs: 2_000 });
    try {
      const result = await sender.send(`${receiver.url}/moved`, '{}', { 'content-type': 'application/json' });
      expect(result).to.include({ ok: false, status: 307, error: 'redirect not followed (307)' });
    } finally {
      await sender.close();
      receiver.answer = () => 200;
    }
  });

  it('gives up on a receiver that does not answer within the timeout', async () => {
    receiver.answer = () => 'hang';
    const sender = new WebhookSender({ allowPrivate: true, timeoutMs: 300 });
    try {
      const started = Date.now();
      const result = await sender.send(`${receiver.url}/slow`, '{}', {});
      expect(result).to.include({ ok: false, status: null, error: 'timed out' });
      expect(Date.now() - started).to.be.within(250, 2_000);
    } finally {
      await sender.close();
      receiver.answer = () => 200;
    }
  });
});
