/**
 * The public metadata routes over real HTTP: the change history as JSON (both of the original's shapes) and as an
 * RSS 2.0 feed that a real XML parser (Chromium's DOMParser, through playwright-core) reads, and the plan catalogue
 * with the numbers the service enforces.
 */
import { expect } from 'chai';
import fc from 'fast-check';
import { request } from 'node:http';
import type { Page } from 'playwright-core';
import { sharedBrowser } from '../helpers/browser.js';
import { CHANGELOG, CURRENT_VERSION } from '../../shared/meta/changelog.js';
import { changelogRss } from '../../shared/meta/changelog-formats.js';
import { getJson } from '../helpers/app.js';
import { accountServices, createTrader, useTradingFixture } from '../helpers/trading.js';

interface Entry {
  version: string;
  date: string;
  title: string;
  changes: string[];
}
interface ChangelogAnswer {
  ok: boolean;
  data: { current_version: string; entries: Entry[]; changelog: Entry[] };
}
interface PlanAnswer {
  plans: {
    plan: string;
    tier: number;
    label: string;
    price_usd: number;
    limits: Record<string, number>;
    features: Record<string, unknown>;
  }[];
  note: string;
  current: string | null;
}

/** What an RSS reader needs of a feed, as the browser's XML parser read it; `error` is the parser's complaint. */
interface ParsedFeed {
  error: string | null;
  root: string;
  version: string | null;
  channel: Record<string, string>;
  items: Record<string, string>[];
}

/** A GET with headers fetch would not send as given (Host), through node:http. */
function rawGet(url: string, headers: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    request(url, { headers }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve(body));
    })
      .on('error', reject)
      .end();
  });
}

function parseFeed(page: Page, xml: string): Promise<ParsedFeed> {
  // no named function inside: the page runs this source as is, without tsx's helpers
  return page.evaluate((text) => {
    const doc = new DOMParser().parseFromString(text, 'application/xml');
    const error = doc.getElementsByTagName('parsererror')[0];
    const channel = doc.documentElement.getElementsByTagName('channel')[0];
    const [channelFields = {}, ...items] = (channel ? [channel, ...channel.getElementsByTagName('item')] : []).map((node) =>
      Object.fromEntries(
        [...node.children].filter((child) => child.children.length === 0).map((child) => [child.tagName, child.textContent ?? '']),
      ),
    );
    return {
      error: error ? (error.textContent ?? 'parser error') : null,
      root: doc.documentElement.tagName,
      version: doc.documentElement.getAttribute('version'),
      channel: channelFields,
      items,
    };
  }, xml);
}

describe('metadata routes: changelog and plan catalogue', function () {
  this.timeout(30_000);
  const fixture = useTradingFixture({ BTC: 65_000 });
  let page: Page;

  before(async () => {
    page = await (await sharedBrowser()).newPage();
  });
  after(async () => {
    await page?.close();
  });

  it('answers /api/changelog.json in the envelope with entries and the older changelog list, newest first', async () => {
    const { status, body } = await getJson<ChangelogAnswer>(`${fixture.api.url}/api/changelog.json`);
    expect(status).to.equal(200);
    expect(body.ok).to.equal(true);
    const ping = await getJson<{ data: { version: string } }>(`${fixture.api.url}/api/v1/ping`);
    expect(body.data.current_version).to.equal(ping.body.data.version).and.equal('2.9.1');
    expect(body.data.changelog).to.deep.equal(body.data.entries);
    const versions = body.data.entries.map((entry) => entry.version);
    // the spec's history, all twelve versions, and this service's own entry on top
    expect(versions).to.include.members([
      '2.9.1',
      '2.9.0',
      '2.8.0',
      '2.7.0',
      '2.6.0',
      '2.5.0',
      '2.4.0',
      '2.3.0',
      '2.2.1',
      '2.2.0',
      '2.1.0',
      '2.0.0',
    ]);
    expect(versions[0]).to.equal('2.9.1+perpdesk');
    expect(body.data.entries.find((entry) => entry.version === '2.2.1')).to.deep.equal({
      version: '2.2.1',
      date: '2026-09-09',
      title: 'Margin fix',
      changes: ['Margin equals the amount sent'],
    });
    const dates = body.data.entries.map((entry) => entry.date);
    expect(dates).to.deep.equal([...dates].sort().reverse());
    for (const entry of body.data.entries) expect(entry.changes.length, entry.version).to.be.greaterThan(0);

    const older = await getJson<ChangelogAnswer>(`${fixture.api.url}/api/changelog.json?format=json`);
    expect(older.body.data).to.deep.equal(body.data);
    // the original's form: /api/changelog?format=json (the default) and format=xml
    for (const query of ['?format=json', '']) {
      const plain = await getJson<ChangelogAnswer>(`${fixture.api.url}/api/changelog${query}`);
      expect([plain.status, plain.body.data], query).to.deep.equal([200, body.data]);
      expect(plain.body.data.current_version).to.equal(CURRENT_VERSION);
    }
    const xml = await fetch(`${fixture.api.url}/api/changelog?format=xml`);
    expect(xml.headers.get('content-type')).to.equal('application/rss+xml; charset=utf-8');
    expect(await xml.text()).to.equal(await (await fetch(`${fixture.api.url}/api/changelog.xml`)).text());
    expect((await getJson<{ error: { code: string } }>(`${fixture.api.url}/api/changelog?format=csv`)).body.error.code).to.equal(
      'invalid_param',
    );
    const wrong = await getJson<{ error: { code: string } }>(`${fixture.api.url}/api/changelog.json?format=csv`);
    expect(wrong.status).to.equal(400);
    expect(wrong.body.error.code).to.equal('invalid_param');
  });

  it('serves /api/changelog.xml as RSS 2.0 that parses as XML, with the required channel and item elements', async () => {
    const response = await fetch(`${fixture.api.url}/api/changelog.xml`);
    expect(response.status).to.equal(200);
    expect(response.headers.get('content-type')).to.equal('application/rss+xml; charset=utf-8');
    const feed = await parseFeed(page, await response.text());
    expect(feed.error).to.equal(null);
    expect(feed).to.include({ root: 'rss', version: '2.0' });
    // RSS 2.0's required channel elements, with absolute links to where the client reached the service
    expect(feed.channel.title).to.equal('perpdesk API changelog');
    expect(feed.channel.link).to.equal(`${fixture.api.url}/docs`);
    expect(feed.channel.description).to.not.equal('');
    expect(feed.channel.lastBuildDate).to.equal('Mon, 07 Dec 2026 00:00:00 GMT');
    expect(feed.items).to.have.length(CHANGELOG.length);
    expect(feed.items[1]).to.deep.equal({
      title: '2.9.1: Official clients',
      link: `${fixture.api.url}/api/changelog.json`,
      description: 'Official clients published; MCP tool for realism (28 tools); Client version fix',
      pubDate: 'Wed, 16 Sep 2026 00:00:00 GMT',
      guid: 'perpdesk-changelog-2.9.1',
    });
  });

  it('keeps any text of an entry intact through the feed (markup characters are escaped)', async () => {
    const text = fc.string({ minLength: 1, maxLength: 40 });
    await fc.assert(
      fc.asyncProperty(text, fc.array(text, { minLength: 1, maxLength: 3 }), async (title, changes) => {
        const feed = await parseFeed(page, changelogRss([{ version: '9.9.9', date: '2026-01-02', title, changes }], 'http://x.test'));
        expect(feed.error).to.equal(null);
        expect(feed.items[0].title).to.equal(`9.9.9: ${title}`);
        expect(feed.items[0].description).to.equal(changes.join('; '));
      }),
      { numRuns: 60 },
    );
    // a Host header that is not a host name is not echoed into the links
    const forged = await rawGet(`${fixture.api.url}/api/changelog.xml`, { host: 'a"><x>' });
    expect((await parseFeed(page, forged)).channel.link).to.equal('http://localhost/docs');
  });

  it('answers /api/apiplan from the plan table the service enforces, with the caller key plan as current', async () => {
    const { status, body } = await getJson<PlanAnswer>(`${fixture.api.url}/api/apiplan`);
    expect(status).to.equal(200);
    // the spec's Limits table: prices 0, 29, 79, 159 (the original's catalogue), requests per minute 120, 600, 2000, 5000
    expect(body.plans.map((plan) => [plan.plan, plan.price_usd, plan.limits.requests_per_minute, plan.limits.max_keys])).to.deep.equal([
      ['free', 0, 120, 3],
      ['pro', 29, 600, 10],
      ['max', 79, 2000, 30],
      ['business', 159, 5000, 100],
    ]);
    expect(body.plans.map((plan) => plan.features.ai_reads_per_day)).to.deep.equal([0, 50, 200, 500]);
    expect(body.note).to.match(/per month/);
    expect(body.current).to.equal(null);

    // the same numbers /usage reports to a key, and the key's plan as current
    const trader = await createTrader(accountServices(fixture.redis), { plan: 'pro' });
    const keyed = await getJson<PlanAnswer>(`${fixture.api.url}/api/apiplan`, { headers: { 'x-api-key': trader.apiKey } });
    expect(keyed.body.current).to.equal('pro');
    const usage = await getJson<{ plans: PlanAnswer['plans'] }>(`${fixture.api.url}/api/bot/v1/usage`, {
      headers: { 'x-api-key': trader.apiKey },
    });
    expect(keyed.body.plans).to.deep.equal(usage.body.plans);
  });
});
