/**
 * The Binance USDⓈ-M dialect's cost: orders per second through `POST /fapi/v1/order` (a signed MARKET open, then the
 * reduce-only MARKET close of each) against the native API's `/open` and `/close`, in the same run, bursts alternating
 * so background load hits both alike; the first round of each warms up (BENCH_ONLY=binance).
 *
 * One-way mode holds one position per symbol and book, so the dialect's burst of 1,000 opens is spread over 125
 * accounts (one key with an HMAC secret each) times the 8 symbols; the native burst is the trading section's (one
 * account, 100 keys, 1,000 opens). Every dialect request is signed when it is sent (timestamp, HMAC-SHA256), as a bot
 * signs it.
 */
import { createHmac } from 'node:crypto';
import autocannon from 'autocannon';
import { configWith } from '../../shared/config.js';
import { createAccountServices } from '../../shared/paper/accounts/account-services.js';
import { closeRedis, createRedis } from '../../shared/redis/connection.js';
import type { Measurement } from '../lib/harness.js';
import { createKeys } from '../lib/keys.js';
import { burst, openCloseBurst, summarize, type Burst, type Population } from './trading.js';

const SYMBOLS = ['BTCUSDT', 'ETHUSDT', 'SOLUSDT', 'BNBUSDT', 'XRPUSDT', 'DOGEUSDT', 'ADAUSDT', 'AVAXUSDT'];
const ACCOUNTS = 125;
/** The native burst's notional: 100 USDT of margin at 10x. */
const NOTIONAL_USD = 1000;

export interface BinanceBenchOptions {
  redisUrl: string;
  apiUrl: string;
  connections: number;
  bursts: number;
}

export interface BinanceSummary {
  rows: Measurement[];
  /** Dialect open+close orders per second over the native API's. */
  ratio: number;
}

interface SignedKey {
  apiKey: string;
  secret: string;
}

/** Keys with an HMAC secret, one per new Business account, sealed under the API's secrets key (configuration). */
async function secretKeys(redisUrl: string, count: number): Promise<SignedKey[]> {
  const redis = createRedis(redisUrl);
  try {
    const { service } = createAccountServices({ redis, secretsKey: configWith().webhookSecretsKey });
    const stamp = Date.now().toString(36);
    const out: SignedKey[] = [];
    for (let a = 0; a < count; a += 1) {
      const created = await service.createKey({ email: `bench-binance-${stamp}-${a}@example.org`, plan: 'business', secret: true });
      out.push({ apiKey: created.apiKey, secret: created.secret ?? '' });
    }
    return out;
  } finally {
    await closeRedis(redis);
  }
}

/** A signed form request as a Binance client sends it. */
function signedOrder(req: autocannon.Request, key: SignedKey, params: Record<string, string>): autocannon.Request {
  const form = new URLSearchParams({ ...params, timestamp: String(Date.now()) }).toString();
  const signature = createHmac('sha256', key.secret).update(form).digest('hex');
  return {
    ...req,
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'X-MBX-APIKEY': key.apiKey },
    body: `${form}&signature=${signature}`,
  };
}

interface Held {
  key: SignedKey;
  symbol: string;
  side: 'BUY' | 'SELL';
  quantity: string;
}

let sent = 0;

/** One dialect burst: a MARKET open on every symbol of every key, then each one's reduce-only close. */
async function dialectBurst(
  options: BinanceBenchOptions,
  keys: SignedKey[],
  prices: Map<string, number>,
): Promise<{ open: Burst; close: Burst }> {
  const orders = keys.flatMap((key) => SYMBOLS.map((symbol, i) => ({ key, symbol, side: i % 2 ? 'SELL' : 'BUY' }) as const));
  const held: Held[] = [];
  let o = 0;
  const open = await burst(options.apiUrl, options.connections, orders.length, {
    method: 'POST',
    path: '/fapi/v1/order',
    setupRequest: (req, context) => {
      const order = orders[o++ % orders.length];
      const quantity = (NOTIONAL_USD / (prices.get(order.symbol) ?? 1)).toPrecision(6);
      Object.assign(context, { held: { ...order, quantity } });
      const params = { symbol: order.symbol, side: order.side, type: 'MARKET', quantity, newClientOrderId: `bb${sent++}` };
      return signedOrder(req, order.key, params);
    },
    onResponse: (status, _body, context) => {
      if (status === 200) held.push((context as { held: Held }).held);
    },
  });
  let c = 0;
  const close = await burst(options.apiUrl, options.connections, Math.max(1, held.length), {
    method: 'POST',
    path: '/fapi/v1/order',
    setupRequest: (req) => {
      const h = held[c++ % Math.max(1, held.length)] ?? { key: keys[0], symbol: SYMBOLS[0], side: 'BUY', quantity: '1' };
      const params = {
        symbol: h.symbol,
        side: h.side === 'BUY' ? 'SELL' : 'BUY',
        type: 'MARKET',
        quantity: h.quantity,
        reduceOnly: 'true',
      };
      return signedOrder(req, h.key, params);
    },
  });
  return { open, close };
}

async function pricesOf(apiUrl: string): Promise<Map<string, number>> {
  const r = await fetch(`${apiUrl}/fapi/v1/ticker/price`);
  const rows = (await r.json()) as { symbol: string; price: string }[];
  return new Map(rows.map((row) => [row.symbol, Number(row.price)]));
}

export async function measureBinance(options: BinanceBenchOptions): Promise<BinanceSummary> {
  const native: Population = { label: 'native', keys: await createKeys(options.redisUrl, 1, 100), burst: ACCOUNTS * SYMBOLS.length };
  const keys = await secretKeys(options.redisUrl, ACCOUNTS);
  const prices = await pricesOf(options.apiUrl);
  const missing = SYMBOLS.filter((s) => !prices.has(s));
  if (missing.length > 0) throw new Error(`bench binance: no price for ${missing.join(', ')}`);
  const runs = { nativeOpen: [] as Burst[], nativeClose: [] as Burst[], dialectOpen: [] as Burst[], dialectClose: [] as Burst[] };
  for (let round = 0; round <= options.bursts; round += 1) {
    const n = await openCloseBurst(options, { url: options.apiUrl }, native);
    const d = await dialectBurst(options, keys, prices);
    if (round === 0) continue;
    runs.nativeOpen.push(n.open);
    runs.nativeClose.push(n.close);
    runs.dialectOpen.push(d.open);
    runs.dialectClose.push(d.close);
  }
  const rows = [
    summarize('native POST /api/bot/v1/open (saturation)', runs.nativeOpen),
    summarize('native POST /api/bot/v1/close (saturation)', runs.nativeClose),
    summarize('Binance POST /fapi/v1/order MARKET open, signed (saturation)', runs.dialectOpen),
    summarize('Binance POST /fapi/v1/order MARKET reduceOnly close, signed (saturation)', runs.dialectClose),
  ];
  const both = (open: Measurement, close: Measurement): number => 2 / (1 / open.requestsPerSecond + 1 / close.requestsPerSecond);
  return { rows, ratio: both(rows[2], rows[3]) / both(rows[0], rows[1]) };
}

export function binanceTable(summary: BinanceSummary): string {
  return [
    '| Binance dialect vs native | orders/s | p50 ms | p99 ms | non-2xx |',
    '|---|---:|---:|---:|---:|',
    ...summary.rows.map((r) => `| ${r.name} | ${Math.round(r.requestsPerSecond)} | ${r.p50Ms} | ${r.p99Ms} | ${r.non2xx} |`),
    `| dialect / native (open+close, harmonic mean of the two rates) | ${summary.ratio.toFixed(2)} | | | |`,
  ].join('\n');
}
