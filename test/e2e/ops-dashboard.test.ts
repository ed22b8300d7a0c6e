/**
 * The queue dashboard in a real browser: Debian's Chromium (test/helpers/browser.ts) driven by
 * playwright-core opens /ops/queues with the operator's basic credentials, behind the service's own helmet
 * settings, and finds every queue of the registry and a failed job's error. The last page is kept as a screenshot
 * in test/artifacts/ (git-ignored).
 */
import { expect } from 'chai';
import { Queue, Worker } from 'bullmq';
import { mkdir } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import type { Browser } from 'playwright-core';
import { sharedBrowser } from '../helpers/browser.js';
import type { WebhookJob } from '../../shared/queues/job-types.js';
import { webhookJobId } from '../../shared/queues/job-types.js';
import { QUEUE_PREFIX, QUEUES } from '../../shared/queues/queue-names.js';
import { closeRedis, createBlockingRedis } from '../../shared/redis/connection.js';
import { useApiFixture } from '../helpers/app.js';
import { testRedisUrl } from '../helpers/redis.js';

const ARTIFACTS = new URL('../artifacts/', import.meta.url);
const FAILURE = 'receiver answered 500 Internal Server Error';

/** One webhook delivery in the webhooks queue that failed for good, as the webhook worker leaves one: its job id. */
async function plantFailedDelivery(): Promise<string> {
  const producer = createBlockingRedis(testRedisUrl());
  const consumer = createBlockingRedis(testRedisUrl());
  const queue = new Queue<WebhookJob>(QUEUES.webhooks, { connection: producer, prefix: QUEUE_PREFIX });
  const worker = new Worker<WebhookJob>(
    QUEUES.webhooks,
    () => {
      throw new Error(FAILURE);
    },
    { connection: consumer, prefix: QUEUE_PREFIX },
  );
  try {
    const failed = new Promise<string>((resolve) => worker.once('failed', (job) => resolve(job!.id!)));
    const job: WebhookJob = { accountId: 'acc1', hookId: 'hook1', event: 'position.opened', body: '{"event":"position.opened"}' };
    await queue.add('deliver', job, { jobId: webhookJobId(job.hookId, '1-0'), attempts: 1 });
    return await failed;
  } finally {
    await worker.close();
    await queue.close();
    await closeRedis(producer, consumer);
  }
}

/** A webhooks job's state, read with BullMQ (not through the dashboard). */
async function jobState(id: string): Promise<string> {
  const connection = createBlockingRedis(testRedisUrl());
  const queue = new Queue(QUEUES.webhooks, { connection, prefix: QUEUE_PREFIX });
  try {
    return await queue.getJobState(id);
  } finally {
    await queue.close();
    await closeRedis(connection);
  }
}

describe('the queue dashboard in a real browser (/ops/queues)', function () {
  this.timeout(60_000);
  const token = randomBytes(24).toString('base64url');
  const fixture = useApiFixture({ OPS_TOKEN: token });
  let browser: Browser;
  let failedJobId: string;

  before(async () => {
    browser = await sharedBrowser();
    failedJobId = await plantFailedDelivery();
  });

  it('lists every queue of the registry and opens a failed job with its error and retries it, with no script or style refused', async () => {
    const context = await browser.newContext({ httpCredentials: { username: 'ops', password: token } });
    // nothing leaves the machine: the page's one outside request (a web font stylesheet) is refused here
    await context.route(
      (url) => !url.href.startsWith(fixture.api.url),
      (route) => route.abort(),
    );
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('console', (message) => {
      if (/Content Security Policy|Refused to/i.test(message.text())) problems.push(`console: ${message.text()}`);
    });
    try {
      const response = await page.goto(`${fixture.api.url}/ops/queues`);
      expect(response?.status()).to.equal(200);
      const sidebar = page.locator('#bull-board-sidebar');
      for (const name of Object.values(QUEUES)) await sidebar.getByRole('link', { name, exact: true }).waitFor();

      await sidebar.getByRole('link', { name: QUEUES.webhooks, exact: true }).click();
      await page
        .getByRole('link', { name: /failed/i })
        .first()
        .click();
      await page.getByText(failedJobId, { exact: true }).first().click();
      await page.waitForURL(`**/ops/queues/queue/${QUEUES.webhooks}/${encodeURIComponent(failedJobId)}**`);
      await page.getByText(FAILURE).first().waitFor();

      await mkdir(ARTIFACTS, { recursive: true });
      await page.screenshot({ path: new URL('ops-dashboard-failed-job.png', ARTIFACTS).pathname, fullPage: true });

      // a change from the dashboard's own page passes its cross-site guard: the job retried waits for a worker again
      const retried = page.waitForResponse((response) => response.request().method() === 'PUT' && /\/retry/.test(response.url()));
      // the job card's retry button (icon only: the refresh arrows)
      await page.locator('button:has(svg.lucide-refresh-cw)').first().click();
      await page.getByRole('alertdialog').getByRole('button', { name: 'Confirm' }).click();
      expect((await retried).status()).to.be.within(200, 299);
      expect(await jobState(failedJobId)).to.equal('waiting');
      expect(problems).to.deep.equal([]);
    } finally {
      await context.close();
    }
  });

  it('refuses the page without the token or with a wrong one: 401 with a basic challenge, no dashboard', async () => {
    for (const [how, httpCredentials] of [
      ['no credentials', undefined],
      ['a wrong password', { username: 'ops', password: `${token}x` }],
    ] as const) {
      const context = await browser.newContext(httpCredentials ? { httpCredentials } : {});
      try {
        const page = await context.newPage();
        const answered = page.waitForEvent('response', (response) => new URL(response.url()).pathname === '/ops/queues');
        const navigation = await page.goto(`${fixture.api.url}/ops/queues`).catch((error: Error) => error);
        const response = await answered;
        expect(response.status(), how).to.equal(401);
        expect(response.headers()['www-authenticate'], how).to.equal('Basic realm="perpdesk ops"');
        if (navigation instanceof Error) {
          // no credentials at all: headless Chromium has no prompt to show, so the navigation fails on the challenge
          expect(navigation.message, how).to.include('ERR_INVALID_AUTH_CREDENTIALS');
        } else {
          // credentials refused: the page shown is the 401's body, not the dashboard
          expect(navigation?.status(), how).to.equal(401);
          const shown = await page.locator('body').innerText();
          expect(shown, how).to.include('ops_unauthorized').and.not.include(QUEUES.webhooks);
        }
      } finally {
        await context.close();
      }
    }
    // the dashboard's JSON API too
    expect((await fetch(`${fixture.api.url}/ops/queues/api/queues`)).status).to.equal(401);
  });

  describe('with OPS_TOKEN unset', () => {
    const bare = useApiFixture();
    it('answers 404, as for a path that does not exist', async () => {
      const credentials = { authorization: `Basic ${Buffer.from(`ops:${token}`).toString('base64')}` };
      expect((await fetch(`${bare.api.url}/ops/queues`, { headers: credentials })).status).to.equal(404);
      expect((await fetch(`${bare.api.url}/ops/queues/api/queues`)).status).to.equal(404);
    });
  });
});
