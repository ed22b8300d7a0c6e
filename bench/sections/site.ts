/**
 * Site benchmarks (BENCH_ONLY=site), on the bench stack's API process:
 * - sign-in link issue: POST /api/auth/start (a link stored as a hash, mailed to the development outbox) and
 *   session check: GET /api/auth/me with a session cookie (the session fetched and its expiry pushed, the account and
 *   its books read); each against bare Express in interleaved rounds (the API's sign-in budgets are set out of reach);
 * - the positions page's first render: Chromium (headless, over loopback) opens /trade for a session whose book holds
 *   100 open positions, from navigation until the table shows all 100 rows; median and p95 over fresh pages.
 */
import autocannon from 'autocannon';
import { chromium } from 'playwright-core';
import { createAccountServices } from '../../shared/paper/accounts/account-services.js';
import { closeRedis, createRedis } from '../../shared/redis/connection.js';
import { readOutbox } from '../../shared/site/site-mail.js';
import { SiteStore } from '../../shared/site/site-store.js';
import { median, type Measurement } from '../lib/harness.js';
import type { BenchStack } from '../lib/stack.js';

const SYMBOLS = ['BTC', 'ETH', 'SOL', 'BNB', 'XRP', 'DOGE', 'ADA', 'AVAX'];
const PAGE_RENDERS = Number(process.env.BENCH_SITE_RENDERS ?? 20);
const OPEN_POSITIONS = 100;

export interface SiteResults {
  rows: Measurement[];
  render: { positions: number; renders: number; medianMs: number; p95Ms: number };
}

async function run(name: string, options: autocannon.Options): Promise<Measurement> {
  const result = await autocannon(options);
  return {
    name,
    kind: name === 'bare express' ? 'baseline' : 'route',
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

/** Signs in through the outbox (start, then finish with the link's token) and answers the session cookie. */
async function signIn(apiUrl: string, records: SiteStore, email: string): Promise<string> {
  const post = (path: string, body: unknown): Promise<Response> =>
    fetch(`${apiUrl}${path}`, {
      method: 'POST',
      headers: { origin: apiUrl, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  await post('/api/auth/start', { email });
  const [mail] = await readOutbox(records, email, 1);
  const token = new URLSearchParams(new URL(mail?.link ?? 'http://x/').hash.slice(1)).get('token');
  const finished = await post('/api/auth/finish', { token });
  const cookie = /pd_session=([^;]+)/.exec(finished.headers.get('set-cookie') ?? '')?.[1];
  if (!cookie) throw new Error(`bench site: sign-in failed (${finished.status})`);
  return cookie;
}

export async function measureSite(stack: BenchStack, durationSeconds: number, rounds: number, connections: number): Promise<SiteResults> {
  const apiUrl = stack.api.url;
  const redis = createRedis(stack.redis.url);
  const records = new SiteStore(redis);
  try {
    const email = `bench-site-${Date.now()}@example.org`;
    const cookie = await signIn(apiUrl, records, email);
    // /api/auth/me answers 200 without a session too: the measured check must be a signed-in one
    const me = (await (await fetch(`${apiUrl}/api/auth/me`, { headers: { cookie: `pd_session=${cookie}` } })).json()) as {
      data: { signed_in: boolean };
    };
    if (!me.data.signed_in) throw new Error('bench site: the session cookie is not signed in');
    const common = { connections, duration: durationSeconds };
    const byName = new Map<string, Measurement[]>();
    for (let round = 0; round < rounds; round += 1) {
      const measured = [
        await run('bare express', { ...common, url: `${stack.bareExpress.url}/` }),
        await run('POST /api/auth/start (sign-in link issued)', {
          ...common,
          url: `${apiUrl}/api/auth/start`,
          method: 'POST',
          headers: { origin: apiUrl, 'content-type': 'application/json' },
          body: JSON.stringify({ email: `bench-links-${Date.now()}@example.org` }),
        }),
        await run('GET /api/auth/me (session check)', {
          ...common,
          url: `${apiUrl}/api/auth/me`,
          headers: { cookie: `pd_session=${cookie}` },
        }),
      ];
      for (const row of measured) byName.set(row.name, [...(byName.get(row.name) ?? []), row]);
    }
    const rows = [...byName.values()].map((all) => ({
      ...(all[0] as Measurement),
      requestsPerSecond: median(all.map((row) => row.requestsPerSecond)),
      p50Ms: median(all.map((row) => row.p50Ms)),
      p99Ms: median(all.map((row) => row.p99Ms)),
      non2xx: all.reduce((sum, row) => sum + row.non2xx, 0),
      errors: all.reduce((sum, row) => sum + row.errors, 0),
    }));

    // 100 open positions on the session's main book, through a key the site made
    await createAccountServices({ redis }).service.setPlan(email, 'pro', 30);
    const made = await fetch(`${apiUrl}/api/bot/key`, {
      method: 'POST',
      headers: { origin: apiUrl, cookie: `pd_session=${cookie}`, 'content-type': 'application/json' },
      body: JSON.stringify({ act: 'create', name: 'bench' }),
    });
    const key = ((await made.json()) as { created: { key: string } }).created.key;
    for (let i = 0; i < OPEN_POSITIONS; i += 1) {
      const opened = await fetch(`${apiUrl}/api/bot/v1/open`, {
        method: 'POST',
        headers: { 'x-api-key': key, 'content-type': 'application/json' },
        body: JSON.stringify({ symbol: SYMBOLS[i % SYMBOLS.length], side: i % 2 === 0 ? 'long' : 'short', margin_usd: 10, leverage: 2 }),
      });
      if (opened.status !== 200) throw new Error(`bench site: open answered ${opened.status}: ${await opened.text()}`);
    }
    const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
    const times: number[] = [];
    try {
      const context = await browser.newContext();
      await context.addCookies([{ name: 'pd_session', value: cookie, url: apiUrl }]);
      for (let i = 0; i < PAGE_RENDERS + 2; i += 1) {
        const page = await context.newPage();
        const started = performance.now();
        await page.goto(`${apiUrl}/trade`);
        await page.waitForFunction((n) => document.querySelectorAll('#positions-table tbody tr').length === n, OPEN_POSITIONS);
        const ms = performance.now() - started;
        // the first two warm the browser's cache of the modules and the server's code paths
        if (i >= 2) times.push(ms);
        await page.close();
      }
    } finally {
      await browser.close();
    }
    const sorted = [...times].sort((a, b) => a - b);
    const p95 = sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.95) - 1)] ?? 0;
    return { rows, render: { positions: OPEN_POSITIONS, renders: times.length, medianMs: median(times), p95Ms: p95 } };
  } finally {
    await closeRedis(redis);
  }
}

export function siteTable(results: SiteResults): string {
  const express = results.rows.find((row) => row.name === 'bare express');
  const ratio = (row: Measurement): string => (express ? (row.requestsPerSecond / express.requestsPerSecond).toFixed(2) : '-');
  const { render } = results;
  return [
    '| site target | req/s | p50 ms | p99 ms | vs bare express | non-2xx |',
    '|---|---:|---:|---:|---:|---:|',
    ...results.rows.map(
      (row) =>
        `| ${row.name} | ${Math.round(row.requestsPerSecond)} | ${row.p50Ms} | ${row.p99Ms} | ${ratio(row)} | ${row.non2xx + row.errors} |`,
    ),
    '',
    '| measurement | renders | median ms | p95 ms |',
    '|---|---:|---:|---:|',
    `| /trade first render, ${render.positions} open positions (navigation until every row shows), Chromium over loopback | ${render.renders} | ${render.medianMs.toFixed(0)} | ${render.p95Ms.toFixed(0)} |`,
  ].join('\n');
}
