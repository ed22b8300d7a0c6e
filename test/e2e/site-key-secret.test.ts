/**
 * The site's key page in a real browser (test/helpers/browser.ts): a key made "with HMAC secret" shows its secret once
 * beside it, the pair signs a Binance USDⓈ-M call, the secret is stored sealed and never shown again (issue #42).
 */
import { expect } from 'chai';
import { createHmac } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import type { RedisClient } from '../../shared/core/redis-client.js';
import { closeRedis } from '../../shared/redis/connection.js';
import { sharedBrowser } from '../helpers/browser.js';
import { getJson, startTestApi, type TestApi } from '../helpers/app.js';
import { useScriptedSim } from '../helpers/market-sim.js';
import { freshRedis } from '../helpers/redis.js';
import { signInOnPage } from '../helpers/site.js';
import { TestPrices } from '../helpers/trading.js';

describe('site: a key with an HMAC secret, made on the keys page in a real browser', function () {
  this.timeout(120_000);
  let redis: RedisClient;
  let api: TestApi;
  let browser: Browser;
  const simulated = useScriptedSim();

  before(async () => {
    redis = await freshRedis();
    const env = {
      PUBLIC_RATE_LIMIT: '1000000',
      SITE_COOKIE_SECURE: 'false',
      PRICE_FRESH_MS: '600000',
      MARKET_SOURCE: 'sim',
      SIM_URL: simulated.sim.url,
    };
    api = await startTestApi(redis, env);
    await new TestPrices(redis).set({ BTCUSDT: 65000 });
    browser = await sharedBrowser();
  });
  after(async () => {
    await api?.close();
    if (redis) await closeRedis(redis);
  });

  /** Creates a key on the keys page, with or without a secret; answers what the page shows. */
  async function createKey(page: Page, name: string, secret: boolean): Promise<{ key: string; secret: string | null }> {
    await page.locator('#key-name').fill(name);
    if (secret) await page.getByLabel('With HMAC secret').check();
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.locator('#new-key-value', { hasText: /^pd_/ }).waitFor();
    await page.locator('#keys-table tbody tr', { hasText: name }).waitFor();
    const key = (await page.locator('#new-key-value').textContent()) ?? '';
    const shown = await page.locator('#new-secret').isVisible();
    return { key, secret: shown ? await page.locator('#new-secret-value').textContent() : null };
  }

  it('shows the secret once beside its key; the pair signs a /fapi call; a key made without one shows none; nothing stored in clear', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    try {
      await signInOnPage(page, { url: api.url, redis }, `secret-${Date.now()}@example.org`);
      await page.getByRole('link', { name: 'API keys' }).click();
      const made = await createKey(page, 'binance-bot', true);
      expect(made.key).to.match(/^pd_[0-9A-Za-z]{40}$/);
      expect(made.secret).to.match(/^[0-9A-Za-z]{64}$/);

      // the pair works as Binance's key and secret
      const query = `timestamp=${Date.now()}`;
      const signature = createHmac('sha256', made.secret ?? '')
        .update(query)
        .digest('hex');
      const balance = await getJson<{ asset: string }[]>(`${api.url}/fapi/v2/balance?${query}&signature=${signature}`, {
        headers: { 'X-MBX-APIKEY': made.key },
      });
      expect(balance.status, JSON.stringify(balance.body)).to.equal(200);
      expect(balance.body.map((row) => row.asset)).to.deep.equal(['USDT']);

      // stored sealed: no Redis value holds it in clear, and the page shows it no more after a reload
      const values = await Promise.all((await redis.keys('acct:*')).map((k) => redis.dump(k)));
      expect(values.some((v) => v !== null && v.includes(made.secret ?? ''))).to.equal(false);
      await page.reload();
      await page.locator('#keys-table tbody tr', { hasText: 'binance-bot' }).waitFor();
      expect(await page.content()).to.not.include(made.secret);

      const plain = await createKey(page, 'plain-bot', false);
      expect(plain.secret).to.equal(null);
      const refused = await getJson<{ code: number }>(`${api.url}/fapi/v2/balance?${query}&signature=${signature}`, {
        headers: { 'X-MBX-APIKEY': plain.key },
      });
      expect([refused.status, refused.body.code]).to.deep.equal([401, -2015]);
      expect(problems).to.deep.equal([]);
    } finally {
      await context.close();
    }
  });
});
