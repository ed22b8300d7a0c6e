import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { measureRounds, ROOT, type Child, type Measurement, type Target } from './lib/harness.js';
import { ingestTable, measureLiquidationIngest, type IngestSummary } from './sections/liquidation-ingest.js';
import { startBenchStack, type BenchStack } from './lib/stack.js';
import { measureTickToApi, type LatencySummary } from './sections/tick-latency.js';
import { measureTrading, type TradingApi } from './sections/trading.js';
import { measureOpenCloseLoop, openCloseLoopTable, type LoopRow } from './sections/open-close-loop.js';
import { prepareMacroData } from './sections/macro-data.js';
import { measurePush, pushTable, type PushResults } from './sections/push.js';
import { measureRedisCost, redisCostTable, type RedisCostRow } from './sections/redis-cost.js';
import { measureSoak, soakTable, type SoakSummary } from './sections/soak.js';
import { clusterTable, measureCluster, type ClusterBenchSummary } from './sections/cluster.js';
import { measureRoundTrips, roundTripTable, type RoundTripRow } from './sections/redis-round-trip.js';
import { measureSweep, sweepTable, type SweepBenchSummary } from './sections/sweep.js';
import { arenaTable, measureArena, type ArenaBenchSummary } from './sections/arena.js';
import { analyticsTable, measureAnalytics, type AnalyticsResults } from './sections/analytics.js';
import { mcpTable, measureMcp } from './sections/mcp.js';
import { measureRealism, realismTable, type RealismSummary } from './sections/realism.js';
import { measureSite, siteTable, type SiteResults } from './sections/site.js';
import { measureReplay, replayTable, type ReplayBenchSummary } from './sections/replay.js';
import { binanceTable, measureBinance, type BinanceSummary } from './sections/binance.js';

const durationSeconds = Number(process.env.BENCH_DURATION ?? 4);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
/**
 * Comma-separated sections to run (foundation, market, trading, macro, derivatives, push, sweep, metrics, capacity, cluster,
 * arena, analytics, mcp, realism, binance, site, replay, soak); all but the soak when unset.
 */
const only = new Set(
  (process.env.BENCH_ONLY ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean),
);
const wants = (section: string): boolean => only.size === 0 || only.has(section);
/** The open + close loop runs with the trading rows, or alone as `open-close`. */
const wantsLoop = wants('trading') || only.has('open-close');
/** The soak holds a load for minutes (BENCH_SOAK_SECONDS, 600 by default): it runs only when named. */
const wantsSoak = only.has('soak');

/** Throughput targets of each section; the two baselines always run with them. */
function targetsFor(stack: BenchStack): Target[] {
  const api = stack.api.url;
  const targets: Target[] = [
    { name: 'bare node http', url: `${stack.bareNode.url}/`, kind: 'baseline' },
    { name: 'bare express', url: `${stack.bareExpress.url}/`, kind: 'baseline' },
  ];
  if (wants('foundation')) {
    targets.push(
      { name: 'GET /api/v1/ping', url: `${api}/api/v1/ping`, kind: 'route' },
      { name: 'GET /api/v1/calc/pnl', url: `${api}/api/v1/calc/pnl?entry=65000&exit=66300&size=0.5&leverage=10&side=long`, kind: 'route' },
    );
  }
  if (wants('market')) {
    targets.push(
      { name: 'GET /api/v1/price', url: `${api}/api/v1/price?symbol=BTC`, kind: 'route' },
      { name: 'GET /api/v1/prices', url: `${api}/api/v1/prices`, kind: 'route' },
    );
  }
  if (wants('macro')) {
    const macroPaths = [
      '/api/v1/screener',
      '/api/v1/calendar',
      '/api/v1/calendar?year=2026',
      '/api/v1/fear-greed',
      '/api/v1/coins',
      '/api/v1/global',
      '/api/v1/trending',
      '/api/v1/defi',
      '/api/latam/ar',
      '/api/latam/br',
    ];
    targets.push(...macroPaths.map((path): Target => ({ name: `GET ${path}`, url: `${api}${path}`, kind: 'route' })));
  }
  if (wants('derivatives')) {
    // the sim's random liquidations keep the feed filled
    targets.push(
      { name: 'GET /api/v1/feed', url: `${api}/api/v1/feed`, kind: 'route' },
      { name: 'GET /api/v1/liquidations', url: `${api}/api/v1/liquidations`, kind: 'route' },
    );
  }
  if (wants('metrics') && stack.apiWithMetrics) {
    // the same routes on two API processes alike but for METRICS_TOKEN (metrics recorded), in the same interleaved rounds
    for (const path of ['/api/v1/ping', '/api/v1/price?symbol=BTC', '/api/v1/prices']) {
      targets.push(
        { name: `GET ${path} (metrics off)`, url: `${api}${path}`, kind: 'route' },
        { name: `GET ${path} (metrics on)`, url: `${stack.apiWithMetrics.url}${path}`, kind: 'route' },
      );
    }
  }
  return targets;
}

function table(rows: Measurement[]): string {
  const node = rows.find((row) => row.name === 'bare node http');
  const express = rows.find((row) => row.name === 'bare express');
  const ratio = (value: number, base: Measurement | undefined): string => (base ? (value / base.requestsPerSecond).toFixed(2) : '-');
  return [
    '| target | req/s | p50 ms | p99 ms | vs bare node | vs bare express | non-2xx | server CPU µs/req | load generator delay p99 ms | p99 of each round ms |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...rows.map(
      (row) =>
        `| ${row.name} | ${Math.round(row.requestsPerSecond)} | ${row.p50Ms} | ${row.p99Ms} | ${ratio(row.requestsPerSecond, node)} | ${ratio(row.requestsPerSecond, express)} | ${row.non2xx + row.errors} | ${row.serverCpuUsPerRequest ?? ''} | ${row.generatorDelayP99Ms ?? ''} | ${row.roundP99Ms?.join(', ') ?? ''} |`,
    ),
  ].join('\n');
}

function latencyTable(latency: LatencySummary): string {
  return [
    '| measurement | samples | median ms | p99 ms | max ms |',
    '|---|---:|---:|---:|---:|',
    `| tick to API (price set on the sim until /api/v1/price serves it) | ${latency.samples} | ${latency.medianMs.toFixed(0)} | ${latency.p99Ms.toFixed(0)} | ${latency.maxMs.toFixed(0)} |`,
  ].join('\n');
}

async function main(): Promise<void> {
  const stack = await startBenchStack({
    metricsApi: wants('metrics'),
    baselineTree: process.env.BENCH_BASELINE_TREE,
    // the soak reads each process's heap, event-loop delay and handles from its own /metrics
    metricsPorts: wantsSoak,
    roles: process.env.BENCH_ROLES === 'all' ? 'all' : 'split',
  });
  let rows: Measurement[] = [];
  let latency: LatencySummary | undefined;
  let ingest: IngestSummary | undefined;
  let push: PushResults | undefined;
  let sweep: SweepBenchSummary | undefined;
  let replay: ReplayBenchSummary | undefined;
  let roundTrips: RoundTripRow[] | undefined;
  let loop: LoopRow[] | undefined;
  let redisCost: RedisCostRow[] | undefined;
  let soak: SoakSummary | undefined;
  let cluster: ClusterBenchSummary | undefined;
  let arena: ArenaBenchSummary | undefined;
  let analytics: AnalyticsResults | undefined;
  let mcp: Measurement[] | undefined;
  let realism: RealismSummary | undefined;
  let binance: BinanceSummary | undefined;
  let site: SiteResults | undefined;
  try {
    mkdirSync(join(ROOT, 'bench/results'), { recursive: true });
    if (wants('macro')) await prepareMacroData(stack.redis.url, stack.sim.url);
    if (!wantsSoak || only.size > 1) rows = await measureRounds(targetsFor(stack), { durationSeconds, connections, rounds });
    if (wants('market')) latency = await measureTickToApi(stack.sim.url, stack.api.url, 100);
    if (wants('derivatives')) ingest = await measureLiquidationIngest(Number(process.env.BENCH_LIQ_EVENTS ?? 100_000));
    if (wantsLoop)
      loop = await measureOpenCloseLoop({
        redisUrl: stack.redis.url,
        api: { url: stack.api.url, pid: stack.api.process.pid },
        bareExpress: { url: stack.bareExpress.url, pid: stack.bareExpress.process.pid },
        ...(stack.apiBaseline ? { baseline: { url: stack.apiBaseline.url, pid: stack.apiBaseline.process.pid } } : {}),
        connections: 32,
        keys: 40,
        seconds: durationSeconds,
        rounds,
      });
    if (wants('trading')) {
      roundTrips = await measureRoundTrips(stack.redis.url, rounds);
      const bursts = Number(process.env.BENCH_TRADING_BURSTS ?? 5);
      const asTradingApi = (api: Child, suffix: string): TradingApi => ({ url: api.url, pid: api.process.pid, suffix });
      // with metrics: the same rows on the API process recording them, bursts and paced rounds interleaved with the other
      // with a baseline tree: the same rows on the earlier commit's API process too, interleaved the same way
      const apis = [
        asTradingApi(stack.api, stack.apiWithMetrics ? ' (metrics off)' : ''),
        ...(stack.apiWithMetrics ? [asTradingApi(stack.apiWithMetrics, ' (metrics on)')] : []),
        ...(stack.apiBaseline ? [asTradingApi(stack.apiBaseline, ' (baseline tree)')] : []),
      ];
      rows.push(
        ...(await measureTrading({
          redisUrl: stack.redis.url,
          apis,
          connections,
          bursts,
          fixedSeconds: durationSeconds,
          fixedRate: 1000,
          fixedRounds: rounds,
          baselines: {
            node: { url: stack.bareNode.url, pid: stack.bareNode.process.pid },
            express: { url: stack.bareExpress.url, pid: stack.bareExpress.process.pid },
          },
        })),
      );
    }
    if (wants('push')) push = await measurePush(stack, durationSeconds);
    if (wantsSoak)
      soak = await measureSoak(stack, {
        rate: Number(process.env.BENCH_SOAK_RATE ?? 300),
        seconds: Number(process.env.BENCH_SOAK_SECONDS ?? 600),
        warmUpSeconds: Number(process.env.BENCH_SOAK_WARM_UP ?? 120),
        windowSeconds: 10,
        accounts: 200,
        samplesFile: process.env.BENCH_SOAK_SAMPLES ?? join(ROOT, 'bench/results/soak-samples.jsonl'),
      });
    if (wants('capacity'))
      redisCost = await measureRedisCost(stack, {
        rate: 500,
        seconds: durationSeconds,
        rounds,
        accounts: Number(process.env.BENCH_COST_ACCOUNTS ?? 500),
      });
    if (wants('cluster'))
      cluster = await measureCluster(stack, {
        connections,
        bursts: Number(process.env.BENCH_TRADING_BURSTS ?? 5),
        accounts: 1000,
        burst: 4000,
        jobs: Number(process.env.BENCH_QUEUE_JOBS ?? 20_000),
      });
    if (wants('analytics'))
      analytics = await measureAnalytics({
        redisUrl: stack.redis.url,
        apiUrl: stack.api.url,
        bareExpressUrl: stack.bareExpress.url,
        connections,
        seconds: durationSeconds,
        rounds,
        books: [1_000, 10_000],
      });
    if (wants('mcp')) {
      const api = { apiUrl: stack.api.url, apiPid: stack.api.process.pid };
      mcp = await measureMcp({ ...api, redisUrl: stack.redis.url, connections, durationSeconds, rounds });
    }
    if (wants('realism')) {
      const bursts = Number(process.env.BENCH_TRADING_BURSTS ?? 5);
      realism = await measureRealism({ redisUrl: stack.redis.url, apiUrl: stack.api.url, connections, bursts });
    }
    if (wants('binance')) {
      const bursts = Number(process.env.BENCH_TRADING_BURSTS ?? 5);
      binance = await measureBinance({ redisUrl: stack.redis.url, apiUrl: stack.api.url, connections, bursts });
    }
    if (wants('site')) site = await measureSite(stack, durationSeconds, rounds, connections);
  } finally {
    await stack.stop();
  }
  // on its own Redis, with the stack stopped: the sim, feed and idle API take no CPU from it then
  if (wants('sweep'))
    sweep = await measureSweep({
      positions: Number(process.env.BENCH_SWEEP_POSITIONS ?? 1_000_000),
      symbols: 500,
      rounds,
      workers: Number(process.env.BENCH_SWEEP_WORKERS ?? 1),
    });
  // the arena's rollup and the relay's counting, on its own Redis too
  if (wants('arena'))
    arena = await measureArena({
      rounds,
      books: Number(process.env.BENCH_ARENA_BOOKS ?? 100_000),
      closesPerBook: Number(process.env.BENCH_ARENA_CLOSES ?? 100),
    });
  // on its own Redis too: REPLAYS clocks at 600x on one worker process
  if (wants('replay'))
    replay = await measureReplay({
      replays: Number(process.env.BENCH_REPLAYS ?? 100),
      seconds: Number(process.env.BENCH_REPLAY_SECONDS ?? 20),
    });
  const markdown = [
    rows.length > 0 ? table(rows) : '',
    loop ? openCloseLoopTable(loop, 32) : '',
    roundTrips ? roundTripTable(roundTrips) : '',
    latency ? latencyTable(latency) : '',
    ingest ? ingestTable(ingest) : '',
    push ? pushTable(push) : '',
    redisCost ? redisCostTable(redisCost) : '',
    soak ? soakTable(soak) : '',
    cluster ? clusterTable(cluster) : '',
    mcp ? mcpTable(mcp) : '',
    sweep ? sweepTable(sweep) : '',
    arena ? arenaTable(arena) : '',
    analytics ? analyticsTable(analytics) : '',
    realism ? realismTable(realism) : '',
    binance ? binanceTable(binance) : '',
    site ? siteTable(site) : '',
    replay ? replayTable(replay) : '',
  ]
    .filter(Boolean)
    .join('\n\n');
  process.stdout.write(`\n${markdown}\n`);
  const resultsDir = join(ROOT, 'bench/results');
  mkdirSync(resultsDir, { recursive: true });
  const stamp = new Date().toISOString();
  writeFileSync(
    join(resultsDir, 'latest.json'),
    JSON.stringify(
      {
        at: stamp,
        durationSeconds,
        rounds,
        connections,
        rows,
        loop,
        roundTrips,
        latency,
        ingest,
        push,
        sweep,
        redisCost,
        soak,
        cluster,
        arena,
        analytics,
        mcp,
        realism,
        binance,
        site,
        replay,
      },
      null,
      2,
    ),
  );
  if (only.size > 0) return; // a partial run does not replace the published table
  const readmePath = join(ROOT, 'bench/README.md');
  const readme = readFileSync(readmePath, 'utf8');
  const section = `<!-- bench:start -->\nLatest run: ${stamp}; median of ${rounds} interleaved rounds of ${durationSeconds} s per target (the paced rows: every request of the rounds), ${connections} connections.\n\n${markdown}\n<!-- bench:end -->`;
  writeFileSync(readmePath, readme.replace(/<!-- bench:start -->[\s\S]*<!-- bench:end -->/, section));
}

await main();
