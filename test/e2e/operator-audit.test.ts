// @three-masters: the key scripts and the account indexes the CLI reads across masters
import { expect } from 'chai';
import { keys } from '../../shared/redis/keys.js';
import { runCli } from '../../ops/cli/cli-run.js';
import { runCliProcess, type CliRun } from '../helpers/cli.js';
import { waitFor } from '../helpers/market-wait.js';
import { signatureVerifies, useWebhookStack } from '../helpers/push.js';
import { snapshotRedis, testRedisUrl } from '../helpers/redis.js';
import { botCall, createTrader, TestPrices, useTradingFixture, type Trader } from '../helpers/trading.js';

type Pos = { id: string; pnl_usd?: number };
type AccountBody = { balance_usd: number; realized_pnl_usd: number; wins: number; losses: number; closed_trades: number };

const cli = (...args: string[]): Promise<CliRun> => runCliProcess(args, { REDIS_URL: testRedisUrl() });
/** The same CLI in this process (what ops/cli/main.ts runs), for the calls that need not spawn one. */
const cliHere = (...args: string[]): Promise<CliRun> => runCli(args, { REDIS_URL: testRedisUrl(), LOG_LEVEL: 'silent' });

describe('operator CLI: the ledger audit', function () {
  this.timeout(120_000);
  const fixture = useTradingFixture({ BTCUSDT: 60_000, ETHUSDT: 3_000 });

  const open = async (who: Trader, symbol: string, side: 'long' | 'short'): Promise<Pos> => {
    const r = await botCall<{ position: Pos }>(fixture.api.url, who, 'POST', '/open', { symbol, side, margin_usd: 100, leverage: 10 });
    expect(r.status, JSON.stringify(r.body)).to.equal(200);
    return r.body.position;
  };
  const close = async (who: Trader, id: string, pct?: number): Promise<void> => {
    const r = await botCall(fixture.api.url, who, 'POST', '/close', { id, ...(pct === undefined ? {} : { pct }) });
    expect(r.status, JSON.stringify(r.body)).to.equal(200);
  };

  it('finds no difference after a few hundred opens and closes through the API, a reset and partial closes; then names a planted one', async () => {
    const alice = await createTrader(fixture.mod, { email: 'alice@example.com' });
    const desk = await createTrader(fixture.mod, { email: 'alice@example.com', book: 'desk-1' });
    const bob = await createTrader(fixture.mod, { email: 'bob@example.com' });
    const traders = [alice, desk, bob];
    let opens = 0;
    for (let round = 0; round < 24; round += 1) {
      // prices move between rounds, so the closes realize gains and losses of every size
      await fixture.prices.set({ BTCUSDT: 60_000 + ((round * 7919) % 1500) - 750, ETHUSDT: 3_000 + ((round * 104_729) % 90) - 45 });
      const opened = await Promise.all(
        traders.flatMap((who, t) =>
          [0, 1, 2].map((i) => open(who, i === 2 ? 'ETH' : 'BTC', (round + t + i) % 2 === 0 ? 'long' : 'short').then((p) => ({ who, p }))),
        ),
      );
      opens += opened.length;
      await fixture.prices.set({ BTCUSDT: 60_000 + ((round * 3571) % 1200) - 600, ETHUSDT: 3_000 + ((round * 6007) % 80) - 40 });
      await Promise.all(
        opened.map(({ who, p }, i) => (i % 4 === 0 ? close(who, p.id, 40).then(() => close(who, p.id)) : close(who, p.id))),
      );
      if (round === 12) expect((await botCall(fixture.api.url, desk, 'POST', '/reset', { confirm: true })).status).to.equal(200);
    }
    expect(opens).to.equal(216);
    const account = await botCall<AccountBody>(fixture.api.url, alice, 'GET', '/account');
    expect(account.body.wins).to.be.greaterThan(0);
    expect(account.body.losses).to.be.greaterThan(0);

    await fixture.api.flush(); // the key usage the API counts in the background
    const untouched = await snapshotRedis(fixture.redis);
    const clean = await cli('audit');
    expect(await snapshotRedis(fixture.redis), 'the audit only reads').to.deep.equal(untouched);
    expect(clean.stderr).to.equal('');
    expect(clean.code, clean.stdout).to.equal(0);
    expect(clean.stdout).to.match(/^audit: 3 books of 2 accounts, \d+ closed trades since their resets: no differences\n$/);
    const trades = Number(/(\d+) closed trades/.exec(clean.stdout)![1]);
    // 216 whole closes and 72 closed parts (3 a round), less what the reset of desk-1 archived (13 rounds of 3 closes and a part)
    expect(trades).to.equal(288 - 13 * 4);

    // a balance off by one cent: realized_cents moves the balance, which /account shows
    await fixture.redis.hincrby(keys.bookStats(alice.accountId, 'main'), 'realized_cents', 1);
    await fixture.redis.hincrby(keys.bookStats(bob.accountId, 'main'), 'wins', -1);
    const stored = (await botCall<AccountBody>(fixture.api.url, alice, 'GET', '/account')).body;
    const planted = await cli('audit');
    expect(planted.code).to.equal(1);
    const cents = Math.round(stored.realized_pnl_usd * 100);
    const lines = planted.stdout.trimEnd().split('\n');
    expect(lines).to.include(`alice@example.com (${alice.accountId}) book main: realized_cents stored ${cents} recomputed ${cents - 1}`);
    expect(lines).to.include(
      `alice@example.com (${alice.accountId}) book main: balance_cents stored ${1_000_000 + cents} recomputed ${1_000_000 + cents - 1}`,
    );
    expect(lines.find((line) => line.startsWith(`bob@example.com (${bob.accountId}) book main: wins stored`))).to.not.equal(undefined);
    expect(lines.at(-1)).to.equal(`audit: 3 books of 2 accounts, ${trades} closed trades since their resets: 3 differences in 2 books`);
    expect(stored.balance_usd).to.equal(10_000 + cents / 100);

    // --email scopes it to bob's one book
    const bobOnly = await cliHere('audit', '--email', ' BOB@example.com', '--json');
    expect(bobOnly.code).to.equal(1);
    const body = JSON.parse(bobOnly.stdout) as { books: number; differences: { book: string; differences: { field: string }[] }[] };
    expect(body.books).to.equal(1);
    expect(body.differences.map((d) => d.differences.map((f) => f.field))).to.deep.equal([['wins']]);
    const unknown = await cliHere('audit', '--email', 'nobody@example.com');
    expect(unknown.code).to.equal(1);
    expect(unknown.stderr).to.equal('error: not_found: no account for nobody@example.com\n');
  });
});

describe('operator CLI: webhooks redeliver', function () {
  this.timeout(60_000);
  const env = { PUBLIC_RATE_LIMIT: '1000000', WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_RETRY_BASE_MS: '10', RELAY_SCAN_MS: '200' };
  const stack = useWebhookStack(env);

  it("re-queues a hook's deliveries that failed while the receiver was down; the receiver gets them with the same X-PD-Delivery", async () => {
    await new TestPrices(stack.redis).set({ BTCUSDT: 60_000 });
    const trader = await createTrader(stack.mod, { email: 'hooked@example.com', plan: 'pro' });
    const added = await botCall<{ webhook: { id: string; secret: string } }>(stack.api.url, trader, 'POST', '/webhooks', {
      act: 'add',
      url: `${stack.receiver.url}/hook`,
      events: ['position.opened'],
    });
    expect(added.status).to.equal(200);
    const hook = added.body.webhook.id;
    stack.receiver.answer = () => 500;
    const before = Date.now();
    for (const side of ['long', 'short']) {
      const r = await botCall(stack.api.url, trader, 'POST', '/open', { symbol: 'BTC', side, margin_usd: 100, leverage: 10 });
      expect(r.status).to.equal(200);
    }
    // each delivery is tried once and retried five times, then kept in the queue's failed set
    const failedIds = await waitFor(
      async () => {
        const stats = await stack.redis.hget(keys.webhookStats(trader.accountId, hook), 'failures');
        if (Number(stats) < 12) return undefined;
        return [...new Set(stack.receiver.received.map((d) => String(d.headers['x-pd-delivery'])))];
      },
      20_000,
      'twelve failed attempts',
    );
    expect(failedIds).to.have.length(2);
    expect(stack.receiver.received).to.have.length(12);

    stack.receiver.answer = () => 200;
    stack.receiver.received.length = 0;
    const later = await cliHere(
      'webhooks',
      'redeliver',
      '--email',
      'hooked@example.com',
      '--hook',
      hook,
      '--since',
      String(Date.now() + 60_000),
    );
    expect(later.code, later.stderr).to.equal(0);
    expect(later.stdout).to.equal(`re-queued 0 failed deliveries of ${hook} (hooked@example.com)\n`);

    const run = await cli('webhooks', 'redeliver', '--email', 'hooked@example.com', '--hook', hook, '--since', String(before));
    expect(run.code, run.stderr).to.equal(0);
    expect(run.stdout.split('\n')[0]).to.equal(`re-queued 2 failed deliveries of ${hook} (hooked@example.com)`);
    const delivered = await waitFor(
      async () => (stack.receiver.received.length >= 2 ? stack.receiver.received : undefined),
      10_000,
      'the redelivered events',
    );
    expect(delivered.map((d) => String(d.headers['x-pd-delivery'])).sort()).to.deep.equal([...failedIds].sort());
    expect(delivered.map((d) => (JSON.parse(d.body) as { event: string }).event)).to.deep.equal(['position.opened', 'position.opened']);
    for (const d of delivered) expect(signatureVerifies(d, added.body.webhook.secret)).to.equal(true);

    const none = await cliHere('webhooks', 'redeliver', '--email', 'hooked@example.com', '--hook', hook);
    expect(none.stdout).to.equal(`re-queued 0 failed deliveries of ${hook} (hooked@example.com)\n`);
    const missing = await cliHere('webhooks', 'redeliver', '--email', 'hooked@example.com', '--hook', 'whNOPE');
    expect(missing.code).to.equal(1);
    expect(missing.stderr).to.match(/^error: webhook_not_found: /);
  });
});
