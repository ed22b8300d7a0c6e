/**
 * Liquidation collector ingest rate on one core: raw exchange frames (all nine formats, one event
 * each) are parsed, normalized and stored through the collector's writer into a private Redis,
 * against a bare XADD loop (pipelined, same batch size, same payload size) on the same Redis.
 */
import type { RedisClient } from '../../shared/core/redis-client.js';
import { configWith } from '../../shared/config.js';
import { createLogger } from '../../shared/core/logger.js';
import { parseBinanceLiquidations } from '../../shared/derivatives/liquidations/formats/binance.js';
import { parseBitfinexLiquidations } from '../../shared/derivatives/liquidations/formats/bitfinex.js';
import { parseBitgetLiquidations } from '../../shared/derivatives/liquidations/formats/bitget.js';
import { BitmexOrderTimes, parseBitmexLiquidations, type BitmexInstruments } from '../../shared/derivatives/liquidations/formats/bitmex.js';
import { parseBybitLiquidations } from '../../shared/derivatives/liquidations/formats/bybit.js';
import { parseDeribitLiquidations } from '../../shared/derivatives/liquidations/formats/deribit.js';
import { parseGateLiquidations } from '../../shared/derivatives/liquidations/formats/gate.js';
import { parseHtxLiquidations } from '../../shared/derivatives/liquidations/formats/htx.js';
import { parseOkxLiquidations, type OkxContractValue } from '../../shared/derivatives/liquidations/formats/okx.js';
import type { LiquidationFrame } from '../../shared/derivatives/liquidations/liquidation-event.js';
import { LiquidationStore } from '../../shared/derivatives/liquidations/liquidation-store.js';
import { LiquidationWriter } from '../../shared/derivatives/liquidations/liquidation-writer.js';
import { closeRedis, createRedis } from '../../shared/redis/connection.js';
import { startEmbeddedRedis } from '../../shared/redis/embedded.js';
import { liquidationFrameHandler } from '../../workers/streams/liquidations/liquidation-connector.js';

export interface IngestSummary {
  events: number;
  symbols: number;
  batch: number;
  /** Events normalized and stored per second (wall clock) by the collector path. */
  collectorPerSecond: number;
  /** The same per second of this process's CPU time: the rate one core sustains (robust to a busy machine). */
  collectorPerCpuSecond: number;
  /** Redis CPU per event stored, µs (the ingest script's cost on the server). */
  redisMicrosPerEvent: number;
  /** XADD per second of a bare pipelined loop (same batch size, same payload size), wall clock and per CPU second. */
  bareXaddPerSecond: number;
  bareXaddPerCpuSecond: number;
  /** collectorPerSecond / bareXaddPerSecond. */
  ratio: number;
  added: number;
}

/** CPU seconds used by this process since `from`. */
function cpuSince(from: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(from);
  return (used.user + used.system) / 1e6;
}

async function redisCpu(redis: RedisClient): Promise<number> {
  const info = await redis.info('cpu');
  const read = (name: string): number => Number(new RegExp(`${name}:([\\d.]+)`).exec(info)?.[1] ?? 0);
  return read('used_cpu_user') + read('used_cpu_sys');
}

const SYMBOLS = 200;
/** The writer's batch, and the bare loop's pipeline size. */
const BATCH = 500;
const coins = Array.from({ length: SYMBOLS }, (_, i) => `C${i}X`);

type Format = {
  parse: (msg: unknown) => LiquidationFrame;
  frame: (i: number, coin: string, ts: number, long: boolean, price: number) => string;
};

function formats(): Format[] {
  const okx = new Map<string, OkxContractValue>(coins.map((c) => [`${c}-USDT-SWAP`, { ctVal: 0.01, inverse: false }]));
  const gate = new Map<string, number>(coins.map((c) => [`${c}_USDT`, 0.001]));
  const bitmex: BitmexInstruments = {
    bySymbol: new Map(
      coins.map((c) => [`${c}USDT`, { underlying: c, kind: 'linear' as const, multiplier: 1, underlyingToPositionMultiplier: 1_000_000 }]),
    ),
    xbtUsd: 60_000,
  };
  const times = new BitmexOrderTimes();
  return [
    {
      parse: parseBinanceLiquidations,
      frame: (i, c, ts, long, p) =>
        JSON.stringify({
          stream: '!forceOrder@arr',
          data: {
            e: 'forceOrder',
            E: ts,
            o: {
              s: `${c}USDT`,
              S: long ? 'SELL' : 'BUY',
              o: 'LIMIT',
              f: 'IOC',
              q: '1.5',
              p: String(p),
              ap: String(p),
              X: 'FILLED',
              l: '1.5',
              z: '1.5',
              T: ts,
            },
          },
        }),
    },
    {
      parse: parseBybitLiquidations,
      frame: (i, c, ts, long, p) =>
        JSON.stringify({
          topic: `allLiquidation.${c}USDT`,
          type: 'snapshot',
          ts,
          data: [{ T: ts, s: `${c}USDT`, S: long ? 'Buy' : 'Sell', v: '1.5', p: String(p) }],
        }),
    },
    {
      parse: (m) => parseOkxLiquidations(m, okx),
      frame: (i, c, ts, long, p) =>
        JSON.stringify({
          arg: { channel: 'liquidation-orders', instType: 'SWAP' },
          data: [
            {
              details: [
                {
                  bkLoss: '0',
                  bkPx: String(p),
                  ccy: '',
                  posSide: long ? 'long' : 'short',
                  side: long ? 'sell' : 'buy',
                  sz: '150',
                  ts: String(ts),
                },
              ],
              instFamily: `${c}-USDT`,
              instId: `${c}-USDT-SWAP`,
              instType: 'SWAP',
              uly: `${c}-USDT`,
            },
          ],
        }),
    },
    {
      parse: parseBitgetLiquidations,
      frame: (i, c, ts, long, p) =>
        JSON.stringify({
          action: 'update',
          arg: { instType: 'usdt-futures', topic: 'liquidation' },
          data: [{ symbol: `${c}USDT`, side: long ? 'buy' : 'sell', price: String(p), amount: '1.5', ts: String(ts) }],
          ts,
        }),
    },
    {
      parse: (m) => parseGateLiquidations(m, gate),
      frame: (i, c, ts, long, p) =>
        JSON.stringify({
          channel: 'futures.public_liquidates',
          event: 'update',
          time: Math.floor(ts / 1000),
          time_ms: ts,
          result: [{ price: p, size: long ? -1500 : 1500, time_ms: ts, contract: `${c}_USDT` }],
        }),
    },
    {
      parse: (m) => parseBitmexLiquidations(m, bitmex, times, Date.now()),
      frame: (i, c, ts, long, p) =>
        JSON.stringify({
          table: 'liquidation',
          action: 'insert',
          data: [{ orderID: `o-${i}`, symbol: `${c}USDT`, side: long ? 'Sell' : 'Buy', price: p, leavesQty: 1_500_000 }],
        }),
    },
    {
      parse: parseDeribitLiquidations,
      frame: (i, c, ts, long, p) =>
        JSON.stringify({
          jsonrpc: '2.0',
          method: 'subscription',
          params: {
            channel: 'trades.future.USDC.100ms',
            data: [
              {
                trade_seq: i,
                trade_id: `t${i}`,
                timestamp: ts,
                tick_direction: 0,
                price: p,
                liquidation: 'T',
                instrument_name: `${c}_USDC-PERPETUAL`,
                index_price: p,
                direction: long ? 'sell' : 'buy',
                amount: 1.5,
              },
            ],
          },
        }),
    },
    {
      parse: parseHtxLiquidations,
      frame: (i, c, ts, long, p) =>
        JSON.stringify({
          op: 'notify',
          topic: `public.${c}-USDT.liquidation_orders`,
          ts,
          data: [
            {
              symbol: c,
              contract_code: `${c}-USDT`,
              direction: long ? 'sell' : 'buy',
              offset: 'close',
              volume: 1500,
              price: p,
              created_at: ts,
              amount: 1.5,
              trade_turnover: 1.5 * p,
            },
          ],
        }),
    },
    {
      parse: parseBitfinexLiquidations,
      frame: (i, c, ts, long, p) =>
        JSON.stringify([91684, [['pos', 1_000_000 + i, ts, null, `t${c}F0:USTF0`, long ? 1.5 : -1.5, p, null, 0, 1, null, p]]]),
    },
  ];
}

async function bareXadd(redis: RedisClient, payload: string, events: number): Promise<{ wall: number; cpu: number }> {
  const started = performance.now();
  const cpu = process.cpuUsage();
  for (let done = 0; done < events; done += BATCH) {
    const pipeline = redis.pipeline();
    for (let i = 0; i < Math.min(BATCH, events - done); i++) pipeline.xadd('bench:{liq}:bare', 'MAXLEN', '~', '500000', '*', 'e', payload);
    await pipeline.exec();
  }
  return { wall: events / ((performance.now() - started) / 1000), cpu: events / cpuSince(cpu) };
}

export async function measureLiquidationIngest(events = 100_000): Promise<IngestSummary> {
  const server = await startEmbeddedRedis();
  const redis = createRedis(server.url);
  try {
    const fmts = formats();
    const now = Date.now();
    // the frames are built before the clock starts: one event each, spread over 9 formats and 200 symbols
    const frames = Array.from({ length: events }, (_, i) => {
      const f = fmts[i % fmts.length];
      return { f, text: f.frame(i, coins[i % SYMBOLS], now - 60_000 + (i % 60_000), i % 3 !== 0, 100 + (i % 997) / 10) };
    });
    const config = configWith({ LOG_LEVEL: 'silent' });
    const logger = createLogger(config);
    const store = new LiquidationStore(redis, { dedupMs: 600_000, rawMax: 1_000_000 });
    const writer = new LiquidationWriter({ store, logger, clock: { now: () => Date.now() }, flushMs: 20, maxBatch: BATCH });
    writer.setUniverse(coins.map((c) => `${c}USDT`));
    const handlers = fmts.map((f, i) => liquidationFrameHandler(`bench-${i}`, { logger, sink: writer }, f.parse));
    const handlerOf = new Map(fmts.map((f, i) => [f, handlers[i]]));
    writer.start();
    const started = performance.now();
    const cpu = process.cpuUsage();
    const redisBefore = await redisCpu(redis);
    for (let i = 0; i < frames.length; i += BATCH) {
      for (const { f, text } of frames.slice(i, i + BATCH)) handlerOf.get(f)!(text);
      // let the writer's Redis round trips run between chunks, as socket frames arrive between them
      await new Promise((resolve) => setImmediate(resolve));
    }
    while (writer.pending > 0 || writer.stats.added + writer.stats.duplicates + writer.stats.stale < writer.stats.received)
      await writer.flush();
    const collectorPerSecond = events / ((performance.now() - started) / 1000);
    const collectorPerCpuSecond = events / cpuSince(cpu);
    const redisMicrosPerEvent = (((await redisCpu(redis)) - redisBefore) * 1e6) / events;
    await writer.stop();
    const payload = (await redis.lindex('liq:{liq}:raw', 0)) ?? 'x'.repeat(60);
    const bare = await bareXadd(redis, payload, events);
    return {
      events,
      symbols: SYMBOLS,
      batch: BATCH,
      collectorPerSecond,
      collectorPerCpuSecond,
      redisMicrosPerEvent,
      bareXaddPerSecond: bare.wall,
      bareXaddPerCpuSecond: bare.cpu,
      ratio: collectorPerSecond / bare.wall,
      added: writer.stats.added,
    };
  } finally {
    await closeRedis(redis);
    await server.stop();
  }
}

export function ingestTable(s: IngestSummary): string {
  return [
    '| measurement | events | events/s | events per CPU s (one core) | Redis µs/event | bare XADD/s (same Redis) | ratio |',
    '|---|---:|---:|---:|---:|---:|---:|',
    `| liquidation ingest: 9 formats parsed, normalized, deduplicated, stored (raw and per-symbol lists, minute buckets, 24 h totals) | ${s.events} | ${Math.round(s.collectorPerSecond)} | ${Math.round(s.collectorPerCpuSecond)} | ${s.redisMicrosPerEvent.toFixed(1)} | ${Math.round(s.bareXaddPerSecond)} | ${s.ratio.toFixed(2)} |`,
  ].join('\n');
}

// `npx tsx bench/sections/liquidation-ingest.ts` runs it alone
if (import.meta.url === `file://${process.argv[1]}`) {
  const summary = await measureLiquidationIngest(Number(process.env.BENCH_LIQ_EVENTS ?? 100_000));
  process.stdout.write(`${ingestTable(summary)}\n${JSON.stringify(summary)}\n`);
}
