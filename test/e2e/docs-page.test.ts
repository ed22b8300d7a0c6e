/**
 * /docs in a real browser: Debian's Chromium driven by playwright-core, behind the service's own helmet CSP, with
 * every request to another origin refused (the page must work offline). It finds the trading group in the sidebar
 * and in Swagger UI, expands POST /api/bot/v1/open with its request and response schemas, authorizes with an API
 * key and runs a dry-run open against this server. No console error, no refused request. Screenshots go to
 * test/artifacts/ (git-ignored).
 */
import { expect } from 'chai';
import { mkdir } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { sharedBrowser } from '../helpers/browser.js';
import { accountServices, createTrader, useTradingFixture, type Trader } from '../helpers/trading.js';

const ARTIFACTS = new URL('../artifacts/', import.meta.url);
const OPEN_V1 = '#operations-bot_trading-postApiBotV1Open';

describe('the docs page in a real browser (/docs)', function () {
  this.timeout(60_000);
  const fixture = useTradingFixture({ BTCUSDT: 65_000 });
  let browser: Browser;
  let trader: Trader;

  before(async () => {
    browser = await sharedBrowser();
    trader = await createTrader(accountServices(fixture.redis));
  });

  /** A page on /docs that records console errors, page errors and every request that left for another origin. */
  async function openDocs(): Promise<{ page: Page; problems: string[]; close(): Promise<void> }> {
    const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
    const problems: string[] = [];
    await context.route(
      (url) => !url.href.startsWith(fixture.api.url),
      (route) => {
        problems.push(`left the origin: ${route.request().url()}`);
        return route.abort();
      },
    );
    const page = await context.newPage();
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console: ${message.text()}`);
    });
    const response = await page.goto(`${fixture.api.url}/docs`);
    expect(response?.status()).to.equal(200);
    // served under the app's helmet CSP: scripts from this origin only, no inline script
    expect(response?.headers()['content-security-policy']).to.match(/script-src 'self';/);
    return { page, problems, close: () => context.close() };
  }

  it('finds the trading group, expands POST /api/bot/v1/open with its schemas, with no console error', async () => {
    const { page, problems, close } = await openDocs();
    try {
      // the sidebar lists the tag groups; its search narrows them to the matching operations
      const sidebar = page.locator('.docs-nav');
      await sidebar.getByRole('button', { name: /^bot trading \(\d+\)$/ }).waitFor();
      await page.locator('#docs-search').fill('bot/v1/open');
      const hits = sidebar.locator('#docs-groups li:not([hidden])');
      expect(await hits.allInnerTexts()).to.deep.equal(['POST\n/api/bot/v1/open']);
      expect(await sidebar.locator('section.docs-group:not([hidden])').getAttribute('data-tag')).to.equal('bot trading');

      // Swagger UI's own trading group, then the operation
      await page.locator('#operations-tag-bot_trading').click();
      const open = page.locator(OPEN_V1);
      await open.locator('.opblock-summary-control').click();
      const body = open.locator('.opblock-body');
      await body.waitFor();
      // the request body's schema, with its fields, and the responses
      await body.getByText('Request body').waitFor();
      await body.locator('.opblock-section-request-body').getByRole('tab', { name: 'Schema' }).click();
      await body.locator('.opblock-section-request-body .model-box').getByText('margin_usd', { exact: true }).first().waitFor();
      await body.locator('.responses-wrapper').getByText('Success, the bare result').waitFor();
      await body.locator('.responses-wrapper').getByRole('tab', { name: 'Schema' }).first().click();
      const answer = body.locator('.responses-wrapper .model-box').first();
      for (const field of ['position', 'order', 'idempotent', 'dry_run']) await answer.getByText(field, { exact: true }).waitFor();

      // the operation from its head down, beside the sidebar
      await open.evaluate((node) => node.scrollIntoView({ block: 'start' }));
      await mkdir(ARTIFACTS, { recursive: true });
      await page.screenshot({ path: new URL('docs-bot-v1-open.png', ARTIFACTS).pathname });
      expect(problems).to.deep.equal([]);
    } finally {
      await close();
    }
  });

  it('tries POST /api/bot/v1/open against this server with the API key given under Authorize', async () => {
    const { page, problems, close } = await openDocs();
    try {
      await page.locator('.auth-wrapper .authorize').click();
      const dialog = page.locator('.modal-ux');
      await dialog.locator('input').fill(trader.apiKey);
      await dialog.locator('button.authorize').click();
      await dialog.locator('button.btn-done').click();
      // the key stays in the page: nothing of it in the browser's storage
      const stored = await page.evaluate(() => JSON.stringify({ ...localStorage, ...sessionStorage }));
      expect(stored).not.to.contain(trader.apiKey);

      // reached from the sidebar this time
      await page.locator('.docs-nav').getByRole('button', { name: 'post /api/bot/v1/open', exact: true }).click();
      const open = page.locator(OPEN_V1);
      await open.getByRole('button', { name: 'Try it out' }).click();
      const order = { symbol: 'BTC', side: 'long', leverage: 10, margin_usd: 100, dry_run: true };
      await open.locator('.body-param textarea').fill(JSON.stringify(order));
      // a fresh price now: the browser's steps above may outlast the one the test set before it (PRICE_FRESH_MS)
      await fixture.prices.set({ BTCUSDT: 65_000 });
      const answered = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/bot/v1/open');
      await open.getByRole('button', { name: 'Execute' }).click();
      const response = await answered;
      expect(response.request().headers()['x-api-key']).to.equal(trader.apiKey);
      expect(response.status()).to.equal(200);
      // the answer as the page shows it: a dry run priced at the live price, 65000
      const shown = open.locator('.live-responses-table td.response-col_description:not(.col_header)');
      await shown.getByText('"dry_run": true').waitFor();
      expect(await shown.innerText()).to.contain('"entry": 65000');

      await shown.evaluate((node) => node.scrollIntoView({ block: 'center' }));
      await mkdir(ARTIFACTS, { recursive: true });
      await page.screenshot({ path: new URL('docs-try-it-out.png', ARTIFACTS).pathname });
      expect(problems).to.deep.equal([]);
    } finally {
      await close();
    }
  });

  it('serves its files from this process: the page, its init script and style, and swagger-ui-dist', async () => {
    for (const [path, type] of [
      ['/docs', 'text/html'],
      ['/docs/docs.js', 'application/javascript'],
      ['/docs/docs.css', 'text/css'],
      ['/docs/assets/swagger-ui-bundle.js', 'javascript'],
      ['/docs/assets/swagger-ui.css', 'text/css'],
    ]) {
      const response = await fetch(`${fixture.api.url}${path}`);
      expect(response.status, path).to.equal(200);
      expect(response.headers.get('content-type'), path).to.contain(type);
    }
    // only what the page loads: the rest of the package (its petstore index.html) is not served
    expect((await fetch(`${fixture.api.url}/docs/assets/index.html`)).status).to.equal(404);
  });
});
