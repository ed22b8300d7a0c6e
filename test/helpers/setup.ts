import { existsSync, readFileSync } from 'node:fs';
import { startEmbeddedRedis, type EmbeddedRedis } from '../../shared/redis/embedded.js';
import { CHROMIUM_MISSING, ensureChromium } from './browser.js';
import { ensurePromtool, PROMTOOL_MISSING } from './promtool.js';
import { buildEntryBundle } from './entry-bundle.js';
import { preparePythonClient } from './python.js';
import { startClusterRedis } from './cluster-redis.js';

/**
 * The suite's own redis-server on a free port, with nothing on disk. Every test file reaches it
 * through testRedisUrl() and never touches another Redis. With PERPDESK_TEST_REDIS=cluster
 * (`npm run test:cluster`) it is a one-node Redis Cluster: every command and script whose keys span
 * two hash slots fails with CROSSSLOT, as it would on a real cluster. With PERPDESK_TEST_REDIS=cluster3
 * (`npm run test:cluster3`) it is a cluster of three masters reached through ioredis's Cluster client.
 *
 * One per process: the suite runs its files in parallel worker processes (.mocharc.cjs), each with a Redis of its own
 * that its files use one after another, so a file that empties Redis empties only its own worker's. Mocha runs the
 * root beforeAll once per file in a worker (once in all in a serial run): the first starts the server, the others
 * reuse it. It stops when the process exits (startEmbeddedRedis and startClusterRedis kill their servers on exit).
 */
let server: Promise<EmbeddedRedis> | undefined;

function startSuiteRedis(): Promise<EmbeddedRedis> {
  const topology = process.env.PERPDESK_TEST_REDIS;
  if (topology === 'cluster3') return startClusterRedis(3);
  if (topology === 'cluster') return startClusterRedis(1);
  return startEmbeddedRedis();
}

export const mochaHooks = {
  async beforeAll(this: Mocha.Context): Promise<void> {
    this.timeout(60_000);
    server ??= startSuiteRedis();
    process.env.PERPDESK_TEST_REDIS_URL = (await server).url;
  },
};

const namedFiles = process.argv.slice(2).filter((arg) => arg.endsWith('.test.ts'));

/** Whether the run may have a file that imports `helper`: the whole suite, a glob, or a named file that does. */
function runUses(helper: string): boolean {
  return namedFiles.length === 0 || namedFiles.some((file) => !existsSync(file) || readFileSync(file, 'utf8').includes(helper));
}

let removeEntryBundle: (() => void) | undefined;

/**
 * Before any file, in mocha's own process. A run with browser tests needs Chromium, one with the alert rules' tests
 * promtool (Debian's prometheus): installed with apt-get when we are root, as redis-server is; otherwise the run
 * stops at once on one line saying what to install, rather than failing or skipping those tests minutes later. A run
 * with the Python client's tests gets their venv the same way (python.ts). A run that starts the service, the demo or
 * the CLI as child processes builds their bundle once, for every worker (test/helpers/entry-bundle.ts).
 */
export async function mochaGlobalSetup(): Promise<void> {
  if (runUses('/helpers/browser.js')) {
    try {
      ensureChromium();
    } catch {
      process.stderr.write(`${CHROMIUM_MISSING}\n`);
      process.exit(1);
    }
  }
  if (runUses('/helpers/python.js')) {
    try {
      preparePythonClient();
    } catch (error) {
      process.stderr.write(`${(error as Error).message}\n`);
      process.exit(1);
    }
  }
  if (runUses('/helpers/promtool.js')) {
    try {
      ensurePromtool();
    } catch {
      process.stderr.write(`${PROMTOOL_MISSING}\n`);
      process.exit(1);
    }
  }
  if (runUses('/helpers/process.js') || runUses('/helpers/cli.js')) removeEntryBundle = await buildEntryBundle();
}

export function mochaGlobalTeardown(): void {
  removeEntryBundle?.();
}
