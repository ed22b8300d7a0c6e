/**
 * Every code sample of the guide (docs/guide/*.md, and docs/python.md) runs against a live stack on loopback: the simulated exchange, the
 * feed, a worker and the API on the suite's Redis. A fenced block tagged sh or bash runs in bash (its curl calls fail
 * on an HTTP error, and each JSON answer they print must be a success), python in the Python client's venv, ts or
 * typescript with tsx; each must exit 0. The samples read PERPDESK_BASE_URL, PERPDESK_API_KEY and PERPDESK_SIM_URL,
 * which this test sets; `@perpdesk/client` is the typed client in clients/typescript. A block whose info string
 * carries `no-run` (a command that starts a service, needs the operator's Redis or runs forever) is counted and
 * listed, not run. The /docs page links every page, and each is served as it is in the repository.
 */
import { expect } from 'chai';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GUIDE_DIR, guideSamples, runProgram, type Lang, type Run, type Sample } from '../helpers/guide-samples.js';
import { simControl, TRADING_SIM_ENV, useSimStack } from '../helpers/market-sim.js';
import { VENV_PYTHON } from '../helpers/python.js';
import { accountServices, createTrader, waitForOpenEntry } from '../helpers/trading.js';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const TS_CLIENT = join(REPO, 'clients/typescript/src/index.ts');
/** Where the TypeScript samples are written: inside the repository, so tsx resolves its packages. */
const TS_SCRATCH = join(REPO, 'node_modules/.cache/guide-samples');

/** curl as the samples call it, but failing on an HTTP error, quiet but for errors, and one answer per line. */
const SH_PRELUDE = 'set -euo pipefail\ncurl() { command curl -sS --fail-with-body -w \'\\n\' "$@"; }\n';

/** Each JSON answer a shell sample printed is a success: no `ok: false`, no `error`, no MCP `isError`. */
function expectSuccessfulAnswers(sample: Sample, stdout: string): number {
  let answers = 0;
  for (const line of stdout.split('\n').filter((l) => /^\s*[[{]/.test(l))) {
    const answer = JSON.parse(line) as unknown;
    answers++;
    if (answer !== null && typeof answer === 'object' && !Array.isArray(answer)) {
      const body = answer as Record<string, unknown>;
      expect(body.ok, `${sample.where}: ${line}`).to.not.equal(false);
      expect(body, `${sample.where}: ${line}`).to.not.have.property('error');
      // an MCP tool's refusal is a JSON-RPC result marked isError
      expect((body.result as { isError?: boolean } | undefined)?.isError, `${sample.where}: ${line}`).to.not.equal(true);
    }
  }
  return answers;
}

describe('the guide: every code sample runs against a live service (docs/guide)', function () {
  // about 15 s on an idle machine; the margin is for a loaded one
  this.timeout(90_000);
  const stack = useSimStack({
    env: {
      ...TRADING_SIM_ENV,
      WEBHOOK_ALLOW_PRIVATE: 'true',
    },
    feed: true,
    worker: {},
  });
  let samples: Sample[];
  let env: Record<string, string>;
  let scratch: string;

  before(async () => {
    samples = await guideSamples();
    const accounts = accountServices(stack.redis);
    const trader = await createTrader(accounts, { plan: 'pro' });
    // the feed has the sim's price before any sample trades (a dry run leaves the book empty)
    await simControl(stack.sim, 'price', { symbol: 'BTCUSDT', price: 65_000 });
    await waitForOpenEntry(stack.api.url, trader, { symbol: 'BTC', side: 'long', margin_usd: 100, leverage: 10 }, 65_000, 'the sim price');
    env = {
      PERPDESK_BASE_URL: stack.api.url,
      PERPDESK_API_KEY: trader.apiKey,
      PERPDESK_SIM_URL: stack.sim.url,
      PYTHONDONTWRITEBYTECODE: '1',
    };
    scratch = await mkdtemp(join(tmpdir(), 'guide-samples-'));
    await mkdir(TS_SCRATCH, { recursive: true });
  });

  after(async () => {
    if (scratch) await rm(scratch, { recursive: true, force: true });
    await rm(TS_SCRATCH, { recursive: true, force: true });
  });

  async function runSample(sample: Sample, index: number): Promise<Run> {
    if (sample.lang === 'sh') return runProgram('bash', ['-c', SH_PRELUDE + sample.code], { env, cwd: scratch });
    // -P and a scratch directory: the installed client is what runs, as a reader's would
    if (sample.lang === 'python') return runProgram(VENV_PYTHON, ['-P', '-'], { env, cwd: scratch, input: sample.code });
    const file = join(TS_SCRATCH, `sample-${index}.mts`);
    await writeFile(file, sample.code.replaceAll("'@perpdesk/client'", JSON.stringify(TS_CLIENT)));
    return runProgram(process.execPath, ['--import', 'tsx', file], { env, cwd: REPO });
  }

  it('runs every sample not marked no-run, in reading order, and lists those that are', async () => {
    const started = Date.now();
    const runnable = samples.filter((s) => s.run);
    const skipped = samples.filter((s) => !s.run);
    let answers = 0;
    for (const [index, sample] of runnable.entries()) {
      const run = await runSample(sample, index);
      expect(run.status, `${sample.where} (${sample.lang}) exited ${run.status}:\n${sample.code}\n--- output:\n${run.output}`).to.equal(0);
      if (sample.lang === 'sh') answers += expectSuccessfulAnswers(sample, run.stdout);
    }
    const byLang = (lang: Lang) => runnable.filter((s) => s.lang === lang).length;
    // a first trade in each of curl, Python and TypeScript, at least
    for (const lang of ['sh', 'python', 'ts'] as const) expect(byLang(lang), lang).to.be.at.least(1);
    expect(answers).to.be.above(0);
    console.log(
      `      guide samples: ${runnable.length} run (sh ${byLang('sh')}, python ${byLang('python')}, ts ${byLang('ts')}; ` +
        `${answers} JSON answers checked) in ${Date.now() - started} ms; ${skipped.length} marked no-run: ${skipped.map((s) => s.where).join(', ')}`,
    );
  });

  it("links every guide page from /docs and the README's map, and serves each as the repository holds it", async () => {
    const page = await (await fetch(`${stack.api.url}/docs`)).text();
    const readme = await readFile(join(REPO, 'README.md'), 'utf8');
    const names = (await readdir(GUIDE_DIR)).filter((n) => n.endsWith('.md')).sort();
    expect(names.length).to.be.at.least(7);
    for (const name of names) {
      expect(readme, name).to.contain(`](docs/guide/${name})`);
      expect(page, name).to.contain(`href="/docs/guide/${name}"`);
      const response = await fetch(`${stack.api.url}/docs/guide/${name}`);
      expect(response.status, name).to.equal(200);
      expect(response.headers.get('content-type'), name).to.contain('text/plain');
      expect(await response.text(), name).to.equal(await readFile(join(GUIDE_DIR, name), 'utf8'));
    }
    expect((await fetch(`${stack.api.url}/docs/guide/missing.md`)).status).to.equal(404);
  });
});
