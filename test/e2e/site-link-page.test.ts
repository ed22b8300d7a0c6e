/**
 * The sign-in link's page in a real browser (Chromium at /usr/bin/chromium): a link someone else asked for, opened by a
 * visitor, names the account and waits for the visitor's one click; it never signs them in on its own (login CSRF).
 */
import { expect } from 'chai';
import { chromium, type Browser } from 'playwright-core';
import type { RedisClient } from '../../shared/core/redis-client.js';
import { closeRedis } from '../../shared/redis/connection.js';
import { startTestApi, type TestApi } from '../helpers/app.js';
import { freshRedis } from '../helpers/redis.js';
import { outboxMail, sitePost } from '../helpers/site.js';

describe('site: the sign-in link page asks for one click', function () {
  this.timeout(60_000);
  let redis: RedisClient;
  let api: TestApi;
  let browser: Browser;

  before(async () => {
    redis = await freshRedis();
    api = await startTestApi(redis, { PUBLIC_RATE_LIMIT: '1000000', SITE_COOKIE_SECURE: 'false' });
    browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
  });
  after(async () => {
    await browser?.close();
    await api?.close();
    if (redis) await closeRedis(redis);
  });

  it("shows whose link it is and signs in only after the click on 'Sign in as …'", async () => {
    // the attacker asks for a link to their own account and gets a victim to open it
    const attacker = `attacker-${Date.now()}@example.org`;
    const asked = Date.now();
    await sitePost(api.url, '/api/auth/start', { email: attacker });
    const { link } = await outboxMail(redis, attacker, asked);
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      page.setDefaultTimeout(10_000);
      const me = async (): Promise<boolean> =>
        page.evaluate(async () => ((await (await fetch('/api/auth/me')).json()) as { data: { signed_in: boolean } }).data.signed_in);
      await page.goto(link);
      const button = page.getByRole('button', { name: `Sign in as ${attacker}` });
      await button.waitFor();
      // the page has read the link, and the visitor is still nobody
      expect(await me()).to.equal(false);
      expect(await page.locator('#confirm-email').textContent()).to.equal(attacker);
      expect(page.url()).not.to.contain('token=');
      await button.click();
      await page.waitForURL(`${api.url}/trade`);
      expect(await me()).to.equal(true);
    } finally {
      await context.close();
    }
  });
});
