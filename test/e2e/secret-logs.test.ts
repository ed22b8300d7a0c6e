import { expect } from 'chai';
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { configWith } from '../../shared/config.js';
import { createAccountServices } from '../../shared/paper/accounts/account-services.js';
import { keys } from '../../shared/redis/keys.js';
import { getJson, useApiFixture } from '../helpers/app.js';
import { captureLog } from '../helpers/log-capture.js';
import { connectStream, refusedUpgrade } from '../helpers/push.js';
import { accountServices, createTrader, type Trader } from '../helpers/trading.js';

describe('secrets never reach the logs (the API at the default log level)', function () {
  this.timeout(30_000);
  const log = captureLog();
  const fixture = useApiFixture({ PUBLIC_RATE_LIMIT: '1000000', LOG_LEVEL: 'info' }, { logger: log.logger });
  let trader: Trader;
  before(async () => {
    trader = await createTrader(accountServices(fixture.redis), { plan: 'free' });
  });

  const requestLine = (status: number, url: (text: string) => boolean) => (line: Record<string, unknown>) =>
    line.msg === 'request completed' && line.statusCode === status && typeof line.url === 'string' && url(line.url);

  it('logs every request, error and stream, with API keys (api_key, key, token, in any spelling) and whsink tokens redacted', async () => {
    const madeUp = `pd_${randomBytes(30).toString('base64url').replace(/[-_]/g, 'x').slice(0, 40)}`;
    const sinkToken = randomBytes(24).toString('hex');
    const brokenSink = randomBytes(24).toString('hex');
    const secrets = [trader.apiKey, madeUp, sinkToken, brokenSink];

    expect((await getJson(`${fixture.api.url}/api/bot/v1/usage?api_key=${trader.apiKey}`)).status).to.equal(200);
    expect((await getJson(`${fixture.api.url}/api/bot/v2/usage?api%5Fkey=${trader.apiKey}&x=1`)).status).to.equal(200);
    expect((await getJson(`${fixture.api.url}/api/bot/v1/usage?api_key=${madeUp}`)).status).to.equal(401);
    expect((await getJson(`${fixture.api.url}/api/v1/price?symbol=BTC&key=${trader.apiKey}&token=${madeUp}`)).status).to.be.a('number');
    expect((await getJson(`${fixture.api.url}/api/whsink/${sinkToken}`, { method: 'POST', body: '{"ping":1}' })).status).to.equal(200);
    expect((await getJson(`${fixture.api.url}/api/whsink/${sinkToken}?token=${madeUp}`)).status).to.equal(200);
    // an unexpected error (the sink's list is not a list) is logged with the path it failed on
    await fixture.redis.set(keys.whsink(createHash('sha256').update(brokenSink).digest('hex')), 'not a list');
    expect((await getJson(`${fixture.api.url}/api/whsink/${brokenSink}`)).status).to.equal(500);

    const stream = connectStream(fixture.api.url, { api_key: trader.apiKey });
    await stream.next((m) => m.type === 'snapshot');
    stream.ws.close();
    await stream.closed;
    expect((await refusedUpgrade(fixture.api.url, { token: madeUp })).status).to.equal(401);

    // every request and stream has its line...
    await log.next(requestLine(200, (url) => url === '/api/bot/v1/usage?api_key=[redacted]'));
    await log.next(requestLine(200, (url) => url === '/api/bot/v2/usage?api%5Fkey=[redacted]&x=1'));
    await log.next(requestLine(401, (url) => url === '/api/bot/v1/usage?api_key=[redacted]'));
    await log.next((line) => line.msg === 'request completed' && line.url === '/api/v1/price?symbol=BTC&key=[redacted]&token=[redacted]');
    await log.next(requestLine(200, (url) => url === '/api/whsink/[redacted]?token=[redacted]'));
    await log.next(requestLine(500, (url) => url === '/api/whsink/[redacted]'));
    await log.next((line) => line.msg === 'unhandled error' && line.path === '/api/whsink/[redacted]');
    await log.next((line) => line.msg === 'stream closed' && line.url === '/api/bot/v2/stream?api_key=[redacted]' && line.code === 1005);
    await log.next(
      (line) =>
        line.msg === 'stream refused' &&
        line.url === '/api/bot/v2/stream?token=[redacted]' &&
        line.status === 401 &&
        line.code === 'bad_api_key',
    );
    // ...and no secret in any of them, whole or in part
    const text = log.text();
    for (const value of secrets) expect(text).to.not.contain(value).and.not.contain(value.slice(3, 19));
  });

  it("never logs a key's HMAC secret (Binance dialect): signed calls, good and forged, log the key redacted", async () => {
    const created = await createAccountServices({ redis: fixture.redis, secretsKey: configWith().webhookSecretsKey }).service.createKey({
      email: `hmac-${Date.now()}@example.org`,
      secret: true,
    });
    const secret = created.secret ?? '';
    const call = async (signWith: string) => {
      const query = `timestamp=${Date.now()}`;
      const signature = createHmac('sha256', signWith).update(query).digest('hex');
      return getJson(`${fixture.api.url}/fapi/v2/balance?${query}&signature=${signature}`, { headers: { 'X-MBX-APIKEY': created.apiKey } });
    };
    expect((await call(secret)).status).to.equal(200);
    expect((await call('z'.repeat(64))).status).to.equal(400);
    await log.next(requestLine(400, (url) => url.startsWith('/fapi/v2/balance?timestamp=')));
    const text = log.text();
    for (const value of [secret, created.apiKey]) expect(text).to.not.contain(value).and.not.contain(value.slice(3, 19));
  });
});
