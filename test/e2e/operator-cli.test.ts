// @three-masters: the key scripts and the account indexes the CLI reads across masters
import { expect } from 'chai';
import fc from 'fast-check';
import type { RedisClient } from '../../shared/core/redis-client.js';
import { runCli } from '../../ops/cli/cli-run.js';
import type { UsageBody } from '../../shared/paper/accounts/usage-view.js';
import { closeRedis } from '../../shared/redis/connection.js';
import { keys } from '../../shared/redis/keys.js';
import { getJson, startTestApi, type TestApi } from '../helpers/app.js';
import { runCliProcess, type CliRun } from '../helpers/cli.js';
import { waitFor } from '../helpers/market-wait.js';
import { freshRedis, snapshotRedis, testRedisUrl } from '../helpers/redis.js';

const KEY = /pd_[0-9A-Za-z]{40}/;

interface ListedKey {
  id: string;
  name: string;
  book: string;
  created: string;
  revoked: boolean;
  calls: number;
  last: string | null;
}

describe('operator CLI (npm run cli), end to end', function () {
  this.timeout(60_000);
  let redis: RedisClient;
  let api: TestApi;
  // runCli is what ops/cli/main.ts runs: most calls run it in this process; the ones that check what a process
  // prints and exits with (a key on stdout, JSON output, exit 1 and 2, help) start the CLI as its own process
  const cli = (...args: string[]): Promise<CliRun> => runCli(args, { REDIS_URL: testRedisUrl(), LOG_LEVEL: 'silent' });
  const cliProcess = (...args: string[]): Promise<CliRun> => runCliProcess(args, { REDIS_URL: testRedisUrl() });
  const usage = (key: string, version = 'v1'): Promise<{ status: number; headers: Headers; body: UsageBody & { error?: string } }> =>
    getJson(`${api.url}/api/bot/${version}/usage`, { headers: { 'x-api-key': key } });

  function keyOf(run: CliRun): string {
    expect(run.code, run.stderr).to.equal(0);
    const match = KEY.exec(run.stdout);
    if (!match) throw new Error(`no key in: ${run.stdout}`);
    return match[0];
  }

  async function listed(email: string): Promise<ListedKey[]> {
    const run = await cli('keys', 'list', '--email', email, '--json');
    expect(run.code, run.stderr).to.equal(0);
    return (JSON.parse(run.stdout) as { keys: ListedKey[] }).keys;
  }

  before(async () => {
    redis = await freshRedis();
    api = await startTestApi(redis, { PUBLIC_RATE_LIMIT: '1000000' });
  });
  after(async () => {
    await api.close();
    await closeRedis(redis);
  });

  it('creates a key that authenticates over HTTP; list, rename and revoke manage it without ever showing it again', async () => {
    const created = await cliProcess('keys', 'create', '--email', ' Trader@Example.com', '--name', 'first bot');
    const apiKey = keyOf(created);
    expect(created.stdout).to.contain('trader@example.com (new)');
    expect(created.stdout.match(new RegExp(apiKey, 'g'))).to.have.length(1);
    const first = await usage(apiKey);
    expect(first.status).to.equal(200);
    expect(first.body.key_name).to.equal('first bot');

    const human = await cli('keys', 'list', '--email', 'trader@example.com');
    expect(human.code).to.equal(0);
    expect(human.stdout).to.match(/^id\s+name\s+book\s+created\s+revoked\s+calls\s+last$/m);
    expect(human.stdout).to.not.contain(apiKey).and.not.contain(apiKey.slice(3, 20));
    const [key] = await waitFor(
      async () => {
        const rows = await listed('trader@example.com');
        return rows[0]?.calls === 1 ? rows : undefined;
      },
      5000,
      'the call in the listing',
    );
    expect(key).to.include({ name: 'first bot', book: 'main', revoked: false, calls: 1 });
    expect(key.id).to.match(/^key_/);
    expect(key.last).to.match(/^\d{4}-\d\d-\d\dT/);
    expect(JSON.stringify(key)).to.not.contain(apiKey.slice(3, 20));

    const renamed = await cli('keys', 'rename', '--email', 'trader@example.com', '--id', key.id, '--name', 'renamed');
    expect(renamed.code, renamed.stderr).to.equal(0);
    expect((await usage(apiKey)).body.key_name).to.equal('renamed');

    const revoked = await cli('keys', 'revoke', '--email', 'trader@example.com', '--id', key.id);
    expect(revoked.code, revoked.stderr).to.equal(0);
    const refused = await usage(apiKey);
    expect(refused.status).to.equal(401);
    expect(refused.body.error).to.equal('revoked_key');
    // the API counts a call when its batch of usage is written: wait for the second one
    const after = await waitFor(
      async () => {
        const rows = await listed('trader@example.com');
        return rows[0]?.calls === 2 ? rows : undefined;
      },
      5000,
      'the second call in the listing',
    );
    expect(after[0]).to.include({ id: key.id, name: 'renamed', revoked: true, calls: 2 });
    const again = await cli('keys', 'revoke', '--email', 'trader@example.com', '--id', key.id);
    expect(again.code).to.equal(0);
    expect(again.stdout).to.contain('already revoked');
  });

  it('sets plans: the X-PD-Plan headers follow, and days bought early are added to the running plan', async () => {
    const apiKey = keyOf(await cli('keys', 'create', '--email', 'payer@example.com'));
    expect((await usage(apiKey)).headers.get('x-pd-plan')).to.equal('free');
    const set = await cli('plans', 'set', '--email', 'payer@example.com', '--plan', 'pro', '--days', '5');
    expect(set.code, set.stderr).to.equal(0);
    expect(set.stdout).to.contain('pro until');
    let response = await usage(apiKey, 'v2');
    expect(response.headers.get('x-pd-plan')).to.equal('pro');
    expect(response.headers.get('x-pd-plan-days-left')).to.equal('5');
    expect(response.headers.get('x-pd-plan-expires')).to.match(/^\d{4}-\d\d-\d\d$/);
    expect(response.headers.get('x-ratelimit-limit')).to.equal('600');
    await cli('plans', 'set', '--email', 'payer@example.com', '--plan', 'pro', '--days', '5');
    response = await usage(apiKey);
    expect(response.headers.get('x-pd-plan-days-left')).to.equal('10');
    await cli('plans', 'set', '--email', 'payer@example.com', '--plan', 'pro', '--days', '30');
    response = await usage(apiKey);
    expect(response.headers.get('x-pd-plan')).to.equal('pro');
    expect(response.headers.get('x-pd-plan-days-left')).to.equal(null);
    expect(response.body.limits.max_keys).to.equal(10);

    const business = await cliProcess('keys', 'create', '--email', 'big@example.com', '--plan', 'business', '--book', 'desk-1', '--json');
    const parsed = JSON.parse(business.stdout) as { api_key: string; key: ListedKey; account: { plan: string } };
    expect(parsed.account.plan).to.equal('business');
    expect(parsed.key.book).to.equal('desk-1');
    const bigUsage = await usage(parsed.api_key);
    expect(bigUsage.headers.get('x-pd-plan')).to.equal('business');
    expect(bigUsage.body.used).to.deep.include({ keys: 1, books: 1 });
  });

  it('grants a trial with plans set --source trial: /usage shows the free month counting down, and a paid month after it ends the trial', async () => {
    const apiKey = keyOf(await cli('keys', 'create', '--email', 'trial@example.com'));
    const before = await usage(apiKey);
    expect(before.body).to.include({ plan: 'free', plan_source: null, free_month: null, plan_days_left: null, plan_price_usd: 0 });
    const trial = await cliProcess(
      'plans',
      'set',
      '--email',
      'trial@example.com',
      '--plan',
      'pro',
      '--days',
      '7',
      '--source',
      'trial',
      '--json',
    );
    expect(trial.code, trial.stderr).to.equal(0);
    expect(JSON.parse(trial.stdout)).to.include({ plan: 'pro', plan_source: 'trial' });
    const granted = await usage(apiKey, 'v2');
    const body = (granted.body as unknown as { data: UsageBody }).data;
    expect(body).to.include({ plan: 'pro', plan_source: 'trial', plan_days_left: 7, plan_price_usd: 29 });
    expect(body.free_month).to.deep.equal({ days_left: 7, until: body.plan_until });
    expect(body.limits.requests_per_minute).to.equal(600);
    expect(body.features.webhooks).to.equal(3);
    expect(granted.headers.get('x-pd-plan')).to.equal('pro');
    // two days and a bit later, the free month has five days left
    const account = (JSON.parse(trial.stdout) as { account: { id: string } }).account.id;
    await redis.hset(keys.accountProfile(account), 'plan_until', String(Date.now() + 4.5 * 86_400_000));
    expect((await usage(apiKey)).body.free_month?.days_left).to.equal(5);
    const human = await cli('plans', 'set', '--email', 'trial@example.com', '--plan', 'pro', '--days', '30');
    expect(human.stdout).to.match(/pro until .*\(35 days left, paid\)/);
    const paid = await usage(apiKey);
    expect(paid.body).to.include({ plan: 'pro', plan_source: 'paid', plan_days_left: 35, free_month: null });
  });

  it('refuses a fourth Free key with max_keys (409) and a second Free book with max_books, exit 1', async () => {
    for (let i = 0; i < 3; i += 1) keyOf(await cli('keys', 'create', '--email', 'full@example.com', ...(i === 0 ? ['--book', 'b1'] : [])));
    const fourth = await cliProcess('keys', 'create', '--email', 'full@example.com');
    expect(fourth.code).to.equal(1);
    expect(fourth.stderr).to.match(/^error: max_keys: .*3 active keys.*\n$/);
    expect(fourth.stdout).to.equal('');
    const [oldest] = await listed('full@example.com');
    expect((await cli('keys', 'revoke', '--email', 'full@example.com', '--id', oldest.id)).code).to.equal(0);
    const secondBook = await cli('keys', 'create', '--email', 'full@example.com', '--book', 'b2');
    expect(secondBook.code).to.equal(1);
    expect(secondBook.stderr).to.match(/^error: max_books: /);
    expect(secondBook.stdout).to.not.match(KEY);
    keyOf(await cli('keys', 'create', '--email', 'full@example.com', '--book', 'b1'));
  });

  it('answers bad arguments with one line on stderr and exit 2, writing nothing', async () => {
    await cli('keys', 'create', '--email', 'exists@example.com');
    const withoutRate = (snapshot: Map<string, string>): Map<string, string> =>
      new Map([...snapshot].filter(([key]) => !key.startsWith('rl:')));
    const before = withoutRate(await snapshotRedis(redis));
    const cases: string[][] = [
      [],
      ['keys'],
      ['keys', 'delete', '--email', 'a@b.co'],
      ['keys', 'create'],
      ['keys', 'create', '--email'],
      ['keys', 'create', '--email', 'not-an-email'],
      ['keys', 'create', '--email', 'a@b.co', '--plan', 'gold'],
      ['keys', 'create', '--email', 'a@b.co', '--book', 'main'],
      ['keys', 'create', '--email', 'a@b.co', '--book', 'has space'],
      ['keys', 'create', '--email', 'a@b.co', '--book', 'x'.repeat(33)],
      ['keys', 'create', '--email', 'a@b.co', '--name', ''],
      ['keys', 'create', '--email', 'a@b.co', '--name', 'bell\u0007'],
      ['keys', 'create', '--email', 'a@b.co', '--email', 'c@d.co'],
      ['keys', 'create', '--email', 'a@b.co', '--days', '3'],
      ['keys', 'create', '--email', 'a@b.co', '--bogus'],
      ['keys', 'list', '--email', 'exists@example.com', 'extra'],
      ['keys', 'rename', '--email', 'exists@example.com', '--id', 'key_1'],
      ['keys', 'revoke', '--email', 'exists@example.com', '--id', '../../etc/passwd'],
      ['plans', 'set', '--email', 'exists@example.com', '--plan', 'pro'],
      ['plans', 'set', '--email', 'exists@example.com', '--plan', 'pro', '--days', '-3'],
      ['plans', 'set', '--email', 'exists@example.com', '--plan', 'pro', '--days', '1.5'],
      ['plans', 'set', '--email', 'exists@example.com', '--plan', 'pro', '--days', '0'],
      ['plans', 'set', '--email', 'exists@example.com', '--plan', 'pro', '--days', '99999'],
      ['plans', 'set', '--email', 'exists@example.com', '--plan', 'pro', '--days', '1e3'],
      ['plans', 'set', '--email', 'exists@example.com', '--plan', 'pro', '--days', '3', '--source', 'gift'],
      ['keys', 'create', '--email', 'a@b.co', '--source', 'trial'],
    ];
    // Two through the real process (exit code and streams), the rest through runCli, which is what ops/cli/main.ts runs.
    const spawned = [0, 14];
    const runs: CliRun[] = [];
    for (const [i, args] of cases.entries()) {
      runs.push(spawned.includes(i) ? await cliProcess(...args) : await cli(...args));
    }
    runs.forEach((run, i) => {
      const where = JSON.stringify(cases[i]);
      expect(run.code, `${where}: ${run.stderr}`).to.equal(2);
      expect(run.stdout, where).to.equal('');
      expect(run.stderr.split('\n'), where).to.have.length(2); // one line and its newline
      expect(run.stderr, where).to.match(/^(error|config error): /);
      expect(run.stderr, where).to.not.match(/\bat .*\.ts:\d+/);
    });
    expect(withoutRate(await snapshotRedis(redis))).to.deep.equal(before);
    const unknown = await cliProcess('keys', 'list', '--email', 'nobody@example.com');
    expect(unknown.code).to.equal(1);
    expect(unknown.stderr).to.equal('error: not_found: no account for nobody@example.com\n');
  });

  it('says in one line that REDIS_URL is needed, and prints help', async () => {
    const missing = await runCliProcess(['keys', 'list', '--email', 'a@b.co'], {});
    expect(missing.code).to.equal(2);
    expect(missing.stderr).to.match(/^error: REDIS_URL is not set[^\n]*\n$/);
    const help = await runCliProcess(['--help'], {});
    expect(help.code).to.equal(0);
    expect(help.stdout).to.contain('keys create --email E');
  });

  it('property: any arguments end in exit 0, 1 or 2 with one line on failure, never a crash', async () => {
    const word = fc.oneof(
      fc.string({ maxLength: 40 }),
      fc.constantFrom(
        'keys',
        'plans',
        'create',
        'list',
        'rename',
        'revoke',
        'set',
        '--email',
        '--plan',
        '--book',
        '--name',
        '--id',
        '--days',
        '--source',
        'trial',
        '--json',
        'a@b.co',
        'pro',
        'main',
        '💥',
        '\u0000',
        '-'.repeat(3),
        'key_AAAAAAAAAAAAAAAA',
      ),
    );
    const argv = fc.oneof(
      fc.array(word, { maxLength: 8 }),
      fc
        .tuple(
          fc.constantFrom(['keys', 'create'], ['keys', 'list'], ['keys', 'rename'], ['keys', 'revoke'], ['plans', 'set']),
          fc.array(word, { maxLength: 8 }),
        )
        .map(([cmd, rest]) => [...cmd, ...rest]),
    );
    await fc.assert(
      fc.asyncProperty(argv, async (args) => {
        const result = await cli(...args);
        expect([0, 1, 2], JSON.stringify(args)).to.include(result.code);
        if (result.code !== 0) {
          expect(result.stdout).to.equal('');
          expect(result.stderr.trimEnd().split('\n'), JSON.stringify(args)).to.have.length(1);
          expect(result.stderr).to.not.match(/TypeError|ReferenceError|undefined is not/);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('leaves no key in Redis in any form but its digest', async () => {
    const keys = [
      keyOf(await cli('keys', 'create', '--email', 'vault@example.com', '--book', 'v1')),
      keyOf(await cli('keys', 'create', '--email', 'vault@example.com', '--name', 'two')),
    ];
    for (const key of keys) expect((await usage(key)).status).to.equal(200);
    const dump = [...(await snapshotRedis(redis))].map(([name, value]) => `${name}=${value}`).join('\n');
    for (const key of keys) {
      expect(dump).to.not.contain(key);
      expect(dump).to.not.contain(key.slice(3, 23));
    }
  });
});
