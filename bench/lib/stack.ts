import { freePort, startEmbeddedRedis, type EmbeddedRedis } from '../../shared/redis/embedded.js';
import { jsonUrl, startChild, startChildAt, type Child } from './harness.js';

/** Everything a benchmark run needs, started once: Redis, the two baselines, the sim, a feed and one API process. */
export interface BenchStack {
  redis: EmbeddedRedis;
  bareNode: Child;
  bareExpress: Child;
  sim: Child;
  feed: Child;
  api: Child;
  /** With `metricsApi`: a second API process like `api` with METRICS_TOKEN set, so it records its metrics. */
  apiWithMetrics?: Child;
  /** With `baselineTree`: a second API process like `api`, run from that checkout. */
  apiBaseline?: Child;
  /** With `roles: 'all'`: `feed` and `api` are this one process (ROLE=all), which also runs the worker role. */
  allInOne?: Child;
  /** With `metricsPorts`: each role process's own /metrics listener (METRICS_PORT), by its `process.pid`. */
  metricsUrls: Map<number, string>;
  stop(): Promise<void>;
}

export interface BenchStackOptions {
  /** Start the second API process that records metrics (the metrics section compares the two in the same rounds). */
  metricsApi?: boolean;
  /**
   * A checkout of an earlier commit (with its node_modules): a second API process runs from it on the same Redis, so
   * the trading rows compare the two in the same rounds.
   */
  baselineTree?: string;
  /** 'all': one ROLE=all process stands for the feed and the API (and runs the worker role); 'split' (the default): one per role. */
  roles?: 'split' | 'all';
  /** Give each role process a METRICS_PORT (prom-client's process metrics: heap, event-loop delay, handles), as the soak reads. */
  metricsPorts?: boolean;
}

const simUrl = (line: string): string | undefined => /^sim listening on (\S+)/.exec(line)?.[1];

async function waitUntil(probe: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`bench: ${what} not ready within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The environment every role process of the stack shares: where Redis and the sim are. */
export interface RoleEnv {
  REDIS_URL: string;
  /** 'true' on a Redis Cluster (REDIS_URL its seeds). */
  REDIS_CLUSTER?: string;
  MARKET_SOURCE: 'sim';
  SIM_URL: string;
  LOG_LEVEL: string;
}

/**
 * An API process (ROLE=api) on a free port. The limiter stays on and counts every request in Redis; the budget is just
 * too large to trip. `tree`: the checkout to run it from (BenchStackOptions.baselineTree); this one by default.
 */
export async function startBenchApi(
  common: RoleEnv,
  extra: Record<string, string> = {},
  tree?: string,
  nodeArgs: readonly string[] = [],
): Promise<Child> {
  const port = await freePort();
  const env = {
    ...common,
    ROLE: 'api',
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_RATE_LIMIT: '1000000000',
    // the site section issues sign-in links as fast as the API answers
    SIGNIN_EMAIL_RATE_LIMIT: '1000000000',
    SIGNIN_IP_RATE_LIMIT: '1000000000',
    SIGNIN_EMAIL_DAILY_LIMIT: '1000000000',
    MAIL_OUTBOX: 'true',
    // plain http, as the demo: the session cookie goes without Secure (and so without the __Host- prefix)
    SITE_COOKIE_SECURE: 'false',
    ...extra,
  };
  return startChildAt('workers/main.ts', env, `http://127.0.0.1:${port}`, '/readyz', tree, nodeArgs);
}

/** A feed process (ROLE=feed) on the sim. */
export function startBenchFeed(common: RoleEnv): Promise<Child> {
  return startChildAt('workers/main.ts', { ...common, ROLE: 'feed' }, common.SIM_URL, '/__sim/state');
}

/** Waits until the API serves a live price of every sim symbol (the feed has written them). */
export function waitForLivePrices(apiUrl: string): Promise<void> {
  return waitUntil(
    async () =>
      (await fetch(`${apiUrl}/api/v1/prices`).then((r) => r.json() as Promise<{ data?: { pairs: unknown[] } }>)).data?.pairs.length === 8,
    // the feed's first prices take a minute or more when other work loads the machine
    120_000,
    'live prices',
  );
}

export async function startBenchStack(options: BenchStackOptions = {}): Promise<BenchStack> {
  const redis = await startEmbeddedRedis();
  const started: Child[] = [];
  const track = (child: Child): Child => (started.push(child), child);
  const metricsUrls = new Map<number, string>();
  /** The environment of a role process, with a METRICS_PORT of its own when asked (recorded under its pid once started). */
  const withMetrics = async (start: (extra: Record<string, string>) => Promise<Child>): Promise<Child> => {
    if (!options.metricsPorts) return track(await start({}));
    const port = await freePort();
    const child = track(await start({ METRICS_PORT: String(port) }));
    if (child.process.pid !== undefined) metricsUrls.set(child.process.pid, `http://127.0.0.1:${port}/metrics`);
    return child;
  };
  try {
    const bareNode = track(await startChild('bench/lib/servers/bare-node.ts', {}, jsonUrl));
    const bareExpress = track(await startChild('bench/lib/servers/bare-express.ts', {}, jsonUrl));
    // a free port, so a benchmark never collides with a running `npm run sim` or another run
    const sim = track(await startChild('ops/sim/main.ts', { SIM_PORT: String(await freePort()) }, simUrl));
    const common: RoleEnv = { REDIS_URL: redis.url, MARKET_SOURCE: 'sim', SIM_URL: sim.url, LOG_LEVEL: 'warn' };
    const allInOne =
      options.roles === 'all'
        ? await withMetrics((extra) => startBenchApi(common, { ROLE: 'all', WEBHOOK_ALLOW_PRIVATE: 'true', ...extra }))
        : undefined;
    const feed = allInOne ?? (await withMetrics((extra) => startBenchFeed({ ...common, ...extra })));
    const startApi = async (extra: Record<string, string>, tree?: string): Promise<Child> =>
      track(await startBenchApi(common, extra, tree));
    // BENCH_CPU_PROF=<dir>: the API process writes a V8 CPU profile there when the stack stops
    const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
    const api = allInOne ?? (await withMetrics((extra) => startBenchApi(common, extra, undefined, profile)));
    const apiWithMetrics = options.metricsApi ? await startApi({ METRICS_TOKEN: 'bench-metrics-token-0123456789' }) : undefined;
    const apiBaseline = options.baselineTree ? await startApi({}, options.baselineTree) : undefined;
    await waitForLivePrices(api.url);
    return {
      redis,
      bareNode,
      bareExpress,
      sim,
      feed,
      api,
      apiWithMetrics,
      apiBaseline,
      allInOne,
      metricsUrls,
      stop: async () => {
        await Promise.all(started.map((child) => child.stop()));
        await redis.stop();
      },
    };
  } catch (error) {
    await Promise.all(started.map((child) => child.stop()));
    await redis.stop();
    throw error;
  }
}

/**
 * A worker process (every processor, the schedules, the outbox relay) on the stack's Redis and sim; the caller stops it.
 * With the stack's `metricsPorts`, its /metrics listener is recorded in `stack.metricsUrls` too.
 */
export async function startBenchWorker(stack: BenchStack, env: Record<string, string> = {}): Promise<Child> {
  const common = { REDIS_URL: stack.redis.url, MARKET_SOURCE: 'sim', SIM_URL: stack.sim.url, WEBHOOK_ALLOW_PRIVATE: 'true' };
  const port = stack.metricsUrls.size > 0 ? await freePort() : undefined;
  const metrics: Record<string, string> = port === undefined ? {} : { METRICS_PORT: String(port) };
  const child = await startChild('workers/main.ts', { ...common, ROLE: 'worker', LOG_LEVEL: 'info', ...metrics, ...env }, (line) =>
    line.includes('worker role started') ? 'worker' : undefined,
  );
  if (port !== undefined && child.process.pid !== undefined) stack.metricsUrls.set(child.process.pid, `http://127.0.0.1:${port}/metrics`);
  return child;
}
