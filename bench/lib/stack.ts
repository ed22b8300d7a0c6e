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
  stop(): Promise<void>;
}

const simUrl = (line: string): string | undefined => /^sim listening on (\S+)/.exec(line)?.[1];

async function waitUntil(probe: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`bench: ${what} not ready within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

export async function startBenchStack(): Promise<BenchStack> {
  const redis = await startEmbeddedRedis();
  const started: Child[] = [];
  const track = (child: Child): Child => (started.push(child), child);
  try {
    const bareNode = track(await startChild('bench/lib/servers/bare-node.ts', {}, jsonUrl));
    const bareExpress = track(await startChild('bench/lib/servers/bare-express.ts', {}, jsonUrl));
    // a free port, so a benchmark never collides with a running `npm run sim` or another run
    const sim = track(await startChild('ops/sim/main.ts', { SIM_PORT: String(await freePort()) }, simUrl));
    const common = { REDIS_URL: redis.url, MARKET_SOURCE: 'sim', SIM_URL: sim.url, LOG_LEVEL: 'warn' };
    const feed = track(await startChildAt('workers/main.ts', { ...common, ROLE: 'feed' }, sim.url, '/__sim/state'));
    const apiPort = await freePort();
    const api = track(
      await startChildAt(
        'workers/main.ts',
        // The limiter stays on and counts every request in Redis; the budget is just too large to trip.
        { ...common, ROLE: 'api', PORT: String(apiPort), HOST: '127.0.0.1', PUBLIC_RATE_LIMIT: '1000000000' },
        `http://127.0.0.1:${apiPort}`,
        '/readyz',
      ),
    );
    await waitUntil(
      async () =>
        (await fetch(`${api.url}/api/v1/prices`).then((r) => r.json() as Promise<{ data?: { pairs: unknown[] } }>)).data?.pairs.length ===
        8,
      30_000,
      'live prices',
    );
    return {
      redis,
      bareNode,
      bareExpress,
      sim,
      feed,
      api,
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
