/**
 * The site in a real browser: Debian's Chromium (test/helpers/browser.ts) driven by playwright-core,
 * against a real API, a webhook worker with the outbox relay, and a receiver for the deliveries. A trader signs in
 * through the development outbox's link, makes a key, trades with it over the API and from the page, and the pages of
 * the equity curve and the arena are opened. Screenshots go to test/artifacts/ (git-ignored).
 */
import { expect } from 'chai';
import { mkdir } from 'node:fs/promises';
import type { RedisClient } from '../../shared/core/redis-client.js';
import type { Browser, Page } from 'playwright-core';
import { sharedBrowser } from '../helpers/browser.js';
import type { AccountServices } from '../../shared/paper/accounts/account-services.js';
import { closeRedis } from '../../shared/redis/connection.js';
import type { RunningRole } from '../../workers/runtime.js';
import { getJson, startTestApi, type TestApi } from '../helpers/app.js';
import { waitFor } from '../helpers/market-wait.js';
import { startReceiver, startWebhookWorker, type TestReceiver } from '../helpers/push.js';
import { freshRedis } from '../helpers/redis.js';
import { useScriptedSim } from '../helpers/market-sim.js';
import { signInOnPage } from '../helpers/site.js';
import { accountServices, botCall, TestPrices } from '../helpers/trading.js';

const ARTIFACTS = new URL('../artifacts/', import.meta.url);
const ENV = {
  PUBLIC_RATE_LIMIT: '1000000',
  SITE_COOKIE_SECURE: 'false',
  WEBHOOK_ALLOW_PRIVATE: 'true',
  WEBHOOK_RETRY_BASE_MS: '50',
  RELAY_SCAN_MS: '200',
  STREAM_TICK_MS: '250',
  // the test's prices are written once per test: they stay fresh through it
  PRICE_FRESH_MS: '600000',
};

type Pos = Record<string, unknown> & { id: string; symbol: string; status: string; sl: number | null };

/**
 * A page that records what a visitor would not want to see: script errors and console errors. Chromium logs every
 * refused fetch as a console error: a test that provokes a refusal on purpose allows that one (`allowed`).
 */
function watched(page: Page, allowed: (text: string, url: string) => boolean = () => false): string[] {
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() !== 'error' && !/Content Security Policy|Refused to/i.test(message.text())) return;
    if (!allowed(message.text(), message.location().url)) problems.push(`console: ${message.text()} (${message.location().url})`);
  });
  return problems;
}

async function screenshot(page: Page, name: string): Promise<void> {
  await mkdir(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: new URL(name, ARTIFACTS).pathname, fullPage: true });
}

describe('site: sign-in, keys, trading and the pages in a real browser', function () {
  this.timeout(120_000);
  let redis: RedisClient;
  let api: TestApi;
  let worker: RunningRole;
  let receiver: TestReceiver;
  let prices: TestPrices;
  let mod: AccountServices;
  let browser: Browser;
  /** Routes other helpers build in parallel: present once their branches are merged (absent: 404). */
  const present = { equity: false, arena: false };

  const simulated = useScriptedSim();

  before(async () => {
    redis = await freshRedis();
    // the chart's candle history comes from the venues' REST: here the simulated exchange's (no feed runs; prices are set)
    const env = { ...ENV, MARKET_SOURCE: 'sim', SIM_URL: simulated.sim.url };
    api = await startTestApi(redis, env);
    worker = await startWebhookWorker(redis, env);
    receiver = await startReceiver();
    prices = new TestPrices(redis);
    mod = accountServices(redis);
    browser = await sharedBrowser();
    present.arena = (await getJson(`${api.url}/api/arena`)).status !== 404;
  });
  after(async () => {
    await worker?.stop();
    await api?.close();
    await receiver?.close();
    if (redis) await closeRedis(redis);
  });
  beforeEach(async () => {
    await prices.set({ BTCUSDT: 65000, ETHUSDT: 3000 });
  });

  const positionsOf = async (key: string): Promise<Pos[]> =>
    (await botCall<{ positions: Pos[] }>(api.url, key, 'GET', '/positions')).body.positions;

  async function createKeyOnPage(page: Page, name: string): Promise<string> {
    await page.getByRole('link', { name: 'API keys' }).click();
    await page.getByLabel('Name').fill(name);
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.locator('#new-key').waitFor();
    const key = (await page.locator('#new-key-value').textContent()) ?? '';
    expect(key).to.match(/^pd_[0-9A-Za-z]{40}$/);
    return key;
  }

  it('walks sign-in, a key, an API trade with its chart lines, a page trade (double click opens once), stop moved, close, webhooks', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.route(
      (url) => !url.href.startsWith(api.url),
      (route) => route.abort(),
    );
    const page = await context.newPage();
    // the stop placed on the wrong side below is refused on purpose
    const problems = watched(page, (text, url) => /status of 400/.test(text) && url.endsWith('/api/site/sltp'));
    const email = `browser-${Date.now()}@example.org`;
    try {
      await signInOnPage(page, { url: api.url, redis }, email);
      expect(await page.locator('#who-email').textContent()).to.equal(email);

      const key = await createKeyOnPage(page, 'browser-bot');
      // the copy button puts the key on the clipboard
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: api.url });
      await page.getByRole('button', { name: 'Copy key' }).click();
      await page.locator('#copy-status', { hasText: 'Copied.' }).waitFor();
      expect(await page.evaluate(() => navigator.clipboard.readText())).to.equal(key);
      await page.locator('#keys-table tbody tr', { hasText: 'browser-bot' }).waitFor();
      await screenshot(page, 'site-keys.png');

      // webhooks need a paid plan: the operator grants Pro, the bot adds a hook to the receiver
      await mod.service.setPlan(email, 'pro', 30);
      const hook = await botCall<{ webhook: { id: string } }>(api.url, key, 'POST', '/webhooks', {
        act: 'add',
        url: `${receiver.url}/site`,
      });
      expect(hook.status, JSON.stringify(hook.body)).to.equal(200);

      // a position opened through the API with the new key appears on the page with its four lines
      const opened = await botCall<{ position: Pos }>(api.url, key, 'POST', '/open', {
        symbol: 'BTC',
        side: 'long',
        margin_usd: 100,
        leverage: 10,
        sl: 60000,
        tp: 70000,
      });
      expect(opened.status, JSON.stringify(opened.body)).to.equal(200);
      const apiPosition = opened.body.position;
      await page.getByRole('link', { name: 'Trade' }).click();
      await page.locator(`tr[data-position="${apiPosition.id}"]`).waitFor();
      await page.locator('#chart-symbol').selectOption('BTC');
      const chart = page.locator('#chart');
      await waitFor(async () => /:liquidation:/.test((await chart.getAttribute('data-lines')) ?? ''), 5_000, 'the chart lines');
      const lines = (await chart.getAttribute('data-lines')) ?? '';
      expect(lines).to.contain(`${apiPosition.id}:entry:${String(apiPosition.entry_price ?? apiPosition.entry)}`);
      expect(lines).to.contain(`${apiPosition.id}:stop:60000`);
      expect(lines).to.contain(`${apiPosition.id}:target:70000`);
      expect(lines).to.contain(`${apiPosition.id}:liquidation:${String(apiPosition.liq_price)}`);
      // the stream is live: a new price reaches the row's mark through it
      await page.locator('#stream-status', { hasText: 'Live.' }).waitFor();
      await prices.set({ BTCUSDT: 65100 });
      await page.locator(`tr[data-position="${apiPosition.id}"] td.mark`, { hasText: '65,100.00' }).waitFor();
      await screenshot(page, 'site-trade-api-position.png');

      // a page trade: a double click on Open opens one position
      receiver.received.length = 0;
      await page.getByLabel('Symbol').fill('ETH');
      await page.getByLabel('Margin $').fill('50');
      await page.getByLabel('Leverage').fill('5');
      // every open the page sends, answered before the count is read
      const answered: Promise<unknown>[] = [];
      page.on('request', (request) => {
        if (request.url().endsWith('/api/site/open')) answered.push(request.response());
      });
      await page.locator('#open-submit').dblclick();
      await page.locator('#open-result', { hasText: 'Opened long ETH' }).waitFor();
      await Promise.all(answered);
      expect(answered.length).to.be.within(1, 2);
      const eth = (await positionsOf(key)).filter((p) => p.symbol === 'ETH');
      expect(eth, 'one ETH position after a double click').to.have.length(1);
      const pagePosition = eth[0] as Pos;
      const row = page.locator(`tr[data-position="${pagePosition.id}"]`);
      await row.waitFor();

      // a refused level is shown next to its field: a long's stop above the market
      await row.getByLabel(/^Stop loss of ETH/).fill('3500');
      await row.getByRole('button', { name: 'Save levels' }).click();
      await row.locator('.form-error', { hasText: 'sl_wrong_side' }).waitFor();
      // moving the stop from the page
      await row.getByLabel(/^Stop loss of ETH/).fill('2800');
      await row.getByRole('button', { name: 'Save levels' }).click();
      await waitFor(
        async () => (await positionsOf(key)).find((p) => p.id === pagePosition.id)?.sl === 2800,
        5_000,
        'the stop moved to 2800',
      );

      // closing it from the page: it leaves the table
      await row.getByRole('button', { name: 'Close' }).click();
      await row.waitFor({ state: 'detached' });
      expect((await positionsOf(key)).map((p) => p.id)).not.to.include(pagePosition.id);
      await screenshot(page, 'site-trade-after-close.png');

      // the page's trade fired the webhooks an API trade fires: opened, updated (stop moved), closed
      const events = (): { event: string; id: unknown }[] =>
        receiver.received.map((d) => {
          const body = JSON.parse(d.body) as { event: string; data: { id?: unknown } };
          return { event: body.event, id: body.data.id };
        });
      await waitFor(() => events().some((e) => e.event === 'position.closed' && e.id === pagePosition.id), 10_000, 'position.closed');
      const forPagePosition = events()
        .filter((e) => e.id === pagePosition.id)
        .map((e) => e.event);
      expect(forPagePosition).to.include.members(['position.opened', 'position.updated', 'position.closed']);
      expect(forPagePosition.filter((e) => e === 'position.opened')).to.have.length(1);
      expect(problems).to.deep.equal([]);
    } finally {
      await context.close();
    }
  });

  it('trades another book picked on the page: a limit order placed and cancelled, a position closed in part', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const problems = watched(page);
    const email = `books-${Date.now()}@example.org`;
    try {
      await signInOnPage(page, { url: api.url, redis }, email);
      // a key bound to book "alpha" makes the book; the page lists it after a reload
      await page.getByRole('link', { name: 'API keys' }).click();
      await page.getByLabel('Name').fill('alpha-bot');
      await page.getByLabel('Book (optional)').fill('alpha');
      await page.getByRole('button', { name: 'Create key' }).click();
      await page.locator('#new-key').waitFor();
      const alphaKey = (await page.locator('#new-key-value').textContent()) ?? '';
      expect(alphaKey).to.match(/^pd_/);
      await page.getByRole('link', { name: 'Trade' }).click();
      await page.locator('body[data-ready="true"]').waitFor();
      await page.getByLabel('Book').selectOption('alpha');
      await page.waitForURL(`${api.url}/trade?book=alpha`);

      // a resting limit entry below the market, then cancelled
      await page.getByLabel('Symbol').fill('BTC');
      await page.getByLabel('Type').selectOption('limit');
      await page.getByLabel('Limit / stop price').fill('60000');
      await page.locator('#open-submit').click();
      await page.locator('#open-result', { hasText: 'Placed limit order' }).waitFor();
      const orders = await botCall<{ orders: { order_id: string; status: string }[] }>(api.url, alphaKey, 'GET', '/orders');
      const resting = orders.body.orders.filter((o) => o.status === 'open');
      expect(resting, JSON.stringify(orders.body)).to.have.length(1);
      const orderRow = page.locator(`tr[data-order="${resting[0]?.order_id}"]`);
      await orderRow.getByRole('button', { name: /^Cancel order/ }).click();
      await orderRow.waitFor({ state: 'detached' });
      const after = await botCall<{ orders: { status: string }[] }>(api.url, alphaKey, 'GET', '/orders');
      expect(after.body.orders.filter((o) => o.status === 'open')).to.have.length(0);

      // a market position on alpha, closed in half: the other half stays
      await page.getByLabel('Type').selectOption('market');
      await page.locator('#open-submit').click();
      await page.locator('#open-result', { hasText: 'Opened long BTC' }).waitFor();
      const [position] = await positionsOf(alphaKey);
      expect(position?.status).to.equal('open');
      const row = page.locator(`tr[data-position="${position?.id}"]`);
      await row.getByLabel(/^Percent of BTC long to close/).fill('50');
      await row.getByRole('button', { name: 'Close' }).click();
      const remaining = await waitFor(
        async () => (await positionsOf(alphaKey)).find((p) => p.id === position?.id && Number(p.qty) < Number(position?.qty)),
        5_000,
        'the half left open',
      );
      expect(Number(remaining.qty)).to.be.closeTo(Number(position?.qty) / 2, 1e-9);
      await page.locator(`tr[data-position="${position?.id}"]`).waitFor();
      // the main book is untouched by all of it
      expect(await page.locator('#book').inputValue()).to.equal('alpha');
      const main = await page.evaluate(
        async () => (await (await fetch('/api/site/positions')).json()) as { data: { positions: unknown[] } },
      );
      expect(main.data.positions).to.deep.equal([]);
      expect(problems).to.deep.equal([]);
    } finally {
      await context.close();
    }
  });

  it('revokes a key after asking to confirm; the key then answers 401 revoked_key', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const problems = watched(page);
    try {
      await signInOnPage(page, { url: api.url, redis }, `revoke-${Date.now()}@example.org`);
      const key = await createKeyOnPage(page, 'short-lived');
      let asked = '';
      // first the visitor says no: nothing happens
      page.once('dialog', (dialog) => {
        asked = dialog.message();
        void dialog.dismiss();
      });
      await page.getByRole('button', { name: 'Revoke key short-lived' }).click();
      expect(asked).to.contain('Revoke the key "short-lived"');
      expect((await botCall(api.url, key, 'GET', '/usage')).status).to.equal(200);
      page.once('dialog', (dialog) => void dialog.accept());
      await page.getByRole('button', { name: 'Revoke key short-lived' }).click();
      await page.locator('#keys-table tbody tr', { hasText: 'revoked' }).waitFor();
      const refused = await botCall<{ error: string }>(api.url, key, 'GET', '/usage');
      expect([refused.status, refused.body.error]).to.deep.equal([401, 'revoked_key']);
      expect(problems).to.deep.equal([]);
    } finally {
      await context.close();
    }
  });

  it('a form clicked before its page script ran waits for it: no native submit that reloads the page', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const problems = watched(page);
    try {
      await signInOnPage(page, { url: api.url, redis }, `early-${Date.now()}@example.org`);
      // the keys page's script held back, as on a slow connection
      let release = (): void => undefined;
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route('**/keys.js', async (route) => {
        await held;
        await route.continue();
      });
      await page.getByRole('link', { name: 'API keys' }).click();
      await page.getByLabel('Name').fill('early-bot');
      const create = page.getByRole('button', { name: 'Create key' });
      expect(await create.isDisabled(), 'the button before the script ran').to.equal(true);
      const clicked = create.click();
      release();
      await clicked;
      await page.locator('#new-key').waitFor();
      expect(await page.locator('#new-key-value').textContent()).to.match(/^pd_[0-9A-Za-z]{40}$/);
      expect(new URL(page.url()).search, 'no native submit').to.equal('');
      expect(problems).to.deep.equal([]);
    } finally {
      await context.close();
    }
  });

  it('runs the trading flow on a phone-sized screen', async () => {
    const context = await browser.newContext({
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
      deviceScaleFactor: 2,
    });
    const page = await context.newPage();
    const problems = watched(page);
    try {
      await signInOnPage(page, { url: api.url, redis }, `phone-${Date.now()}@example.org`);
      // nothing is wider than the screen but the tables, which scroll in their own box
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).to.be.at.most(0);
      await page.getByLabel('Symbol').fill('BTC');
      await page.getByLabel('Side').selectOption('short');
      await page.locator('#open-submit').tap();
      await page.locator('#open-result', { hasText: 'Opened short BTC' }).waitFor();
      const row = page.locator('#positions-table tbody tr').first();
      await row.waitFor();
      await screenshot(page, 'site-trade-phone.png');
      await row.getByRole('button', { name: 'Close' }).tap();
      await row.waitFor({ state: 'detached' });
      await page.locator('#positions-empty').waitFor();
      expect(problems).to.deep.equal([]);
    } finally {
      await context.close();
    }
  });

  it('shows a field error next to the field for a refused open, and the keyboard reaches every control', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    // the open with too high a leverage is refused on purpose
    const problems = watched(page, (text, url) => /status of 400/.test(text) && url.endsWith('/api/site/open'));
    try {
      await signInOnPage(page, { url: api.url, redis }, `keyboard-${Date.now()}@example.org`);
      await page.getByLabel('Leverage').fill('5000');
      await page.getByLabel('Leverage').press('Enter');
      const slot = page.locator('[data-error-for="leverage"]');
      await slot.filter({ hasText: 'leverage_max' }).waitFor();
      expect(await page.getByLabel('Leverage').getAttribute('aria-invalid')).to.equal('true');
      // tabbing from the top reaches the open button
      await page.keyboard.press('Tab');
      let reached = false;
      for (let i = 0; i < 40 && !reached; i += 1) {
        reached = await page.evaluate(() => document.activeElement?.id === 'open-submit');
        if (!reached) await page.keyboard.press('Tab');
      }
      expect(reached, 'Open is reachable with Tab').to.equal(true);
      expect(problems).to.deep.equal([]);
    } finally {
      await context.close();
    }
  });

  it('shows the equity curve page: the curve once GET /api/bot/v2/equity exists, a clear notice while it does not', async function () {
    const context = await browser.newContext();
    const page = await context.newPage();
    // while the route is absent its 404 is the browser's one expected console line
    const problems = watched(page, (text, url) => !present.equity && /404/.test(text) && url.includes('/api/site/equity'));
    try {
      await signInOnPage(page, { url: api.url, redis }, `equity-${Date.now()}@example.org`);
      const response = page.waitForResponse((r) => r.url().includes('/api/site/equity'));
      await page.getByRole('link', { name: 'Equity' }).click();
      present.equity = (await response).status() !== 404;
      if (present.equity) {
        await page.locator('#equity-summary', { hasText: /Equity|No closed trades/ }).waitFor();
        expect(await page.locator('#equity-status').isHidden()).to.equal(true);
      } else {
        await page.locator('#equity-status', { hasText: 'not available on this server yet' }).waitFor();
      }
      await screenshot(page, 'site-equity.png');
      expect(problems).to.deep.equal([]);
    } finally {
      await context.close();
    }
  });

  it('shows the arena board: its rows once GET /api/arena exists, a clear notice while it does not', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const problems = watched(page, (text, url) => !present.arena && /404/.test(text) && url.includes('/api/arena'));
    try {
      await page.goto(`${api.url}/arena`);
      if (present.arena) {
        await page.locator('#arena-table').waitFor();
        await page.waitForFunction(
          () =>
            document.querySelector('#arena-note')?.textContent !== '' || !document.querySelector('#arena-status')?.hasAttribute('hidden'),
        );
        expect(await page.locator('#arena-status.bad').count()).to.equal(0);
      } else {
        await page.locator('#arena-status', { hasText: 'not available on this server yet' }).waitFor();
      }
      await screenshot(page, 'site-arena.png');
      expect(problems).to.deep.equal([]);
    } finally {
      await context.close();
    }
  });
});
