/**
 * The change history: the one source of /api/changelog.json, /api/changelog.xml and CHANGELOG.md (written by
 * `npm run generate`; test/unit/generated-files.test.ts fails when it differs). Newest first. Pure data.
 */
import { SERVICE_NAME, SERVICE_VERSION } from '../core/service.js';

export interface ChangelogEntry {
  /** Semantic version; this service's own entries carry build metadata (+perpdesk) on the contract version they implement. */
  version: string;
  /** UTC day, YYYY-MM-DD. */
  date: string;
  title: string;
  changes: string[];
}

export const CHANGELOG: readonly ChangelogEntry[] = [
  {
    version: `${SERVICE_VERSION}+${SERVICE_NAME}`,
    date: '2026-12-07',
    title: 'This service: the 2.9.1 contract on Redis, with its own documentation and tools',
    changes: [
      'All state in Redis (Redis Cluster ready): API pods hold none, one Lua script per money-moving change',
      'Public status page with 90 days of availability (/api/status)',
      'OpenAPI 3.1 document generated from the validating schemas (/api/openapi.json), browsable at /docs with try-it-out',
      'Typed TypeScript client generated from the OpenAPI document (clients/typescript)',
      'Remote MCP server at /mcp (stateless Streamable HTTP) and /ai with a built-in, deterministic analyst',
      'Change history as JSON and RSS 2.0 (/api/changelog.json, /api/changelog.xml) and the plan catalogue (/api/apiplan) from the ' +
        'same tables the service runs on',
      'Operator CLI, queue dashboard and Prometheus metrics behind OPS_TOKEN',
      "Stocks, metals, indices and forex classed from each venue's instrument metadata; /markets lists unlisted_classes; opens on a " +
        'closed TradFi market (its exchange says so, or its price stood still past TRADFI_FROZEN_MS) answer 409 market_closed, ' +
        "and /markets marks them market_closed; the bot API's keyless /price answers 409 market_closed with the last price, as the " +
        "original's does, and /api/v1/price carries market_closed",
      '/report totals carry n; /equity carries starting_balance_usd and a live now point after a reset',
      'A full Redis answers 503 unavailable with Retry-After; every Redis command has a timeout (REDIS_COMMAND_TIMEOUT_MS)',
      'Python client (clients/python; httpx, pydantic v2, websockets), its models generated from the OpenAPI document beside the ' +
        'TypeScript one',
      'A guide read in order (docs/guide), each page served at /docs/guide/<page> and linked from /docs',
      'X-RateLimit-Reset keeps one value for the whole of a window',
      'Binance USDⓈ-M dialect at /fapi and /futures/data (ccxt binanceusdm with only its hosts changed): HMAC-signed keys (CLI ' +
        'and site), market data, account, MARKET/LIMIT/conditional and Algo orders, adding to a position, batch orders, ' +
        'Modify Order, and the user-data stream (listenKey, ORDER_TRADE_UPDATE, ACCOUNT_UPDATE)',
      'Binance dialect: a resting LIMIT or STOP_MARKET names the pair (BTCUSDT) in its answer, its reads and its cancel, as every ' +
        'other answer does',
      'Binance user-data stream: a resting LIMIT or STOP_MARKET placed is its ORDER_TRADE_UPDATE NEW (a channel-only order.placed ' +
        "outbox event, never a webhook); a close's ACCOUNT_UPDATE carries the funding it settled in bc (funding is charged at the close)",
      'Binance userTrades: one fill per leg of a position added to (the open and each add, at its own price, quantity and fee)',
      'Binance PUT batchOrders: up to 5 LIMIT orders modified in turn, each answered in its place with the order or its own error',
      'Binance one-way flip through zero: an order past the opposite position closes it and opens the remainder, one FILLED ' +
        'answer at the average price (reduceOnly still stops at zero; a refused remainder answers EXPIRED with what filled)',
      'Binance one-way netting holds under races: MARKET orders racing on one symbol make one position (the later ones add ' +
        'to it), and an add whose position closed under it nets onto what the symbol holds then; a race lost three times ' +
        'answers -1008 (retryable)',
      'The demo and every process stop within seconds under load: a screener run hears the stop, the feed stops its ' +
        'connectors at once',
    ],
  },
  {
    version: '2.9.1',
    date: '2026-09-16',
    title: 'Official clients',
    changes: ['Official clients published', 'MCP tool for realism (28 tools)', 'Client version fix'],
  },
  {
    version: '2.9.0',
    date: '2026-09-16',
    title: 'Realism switches',
    changes: [
      'Realism switches slippage, margin_tiers and margin_venue (all off by default)',
      'Per-call realism overrides on open',
      'Arena rows carry open-book fields',
    ],
  },
  {
    version: '2.8.0',
    date: '2026-09-15',
    title: 'Fourth plan',
    changes: ['Fourth plan', 'Plan prices revised'],
  },
  {
    version: '2.7.0',
    date: '2026-09-15',
    title: 'API plans',
    changes: ['API plans separate from site Premium', 'webhooks and ai answer plan_required (breaking)'],
  },
  { version: '2.6.0', date: '2026-09-12', title: 'Replay', changes: ['Replay'] },
  {
    version: '2.5.0',
    date: '2026-09-12',
    title: 'Books, reset and equity',
    changes: ['Books', 'reset', 'equity', 'arena', 'usage_30d', 'Named input errors'],
  },
  { version: '2.4.0', date: '2026-09-11', title: 'Fee venues', changes: ['Fee venues'] },
  {
    version: '2.3.0',
    date: '2026-09-11',
    title: 'Webhooks, trailing stops and stop entries',
    changes: ['Webhooks', 'Trailing stops', 'Stop entries', 'modify_order', 'dry_run', 'report', 'ai', 'Keyed data tier'],
  },
  { version: '2.2.1', date: '2026-09-09', title: 'Margin fix', changes: ['Margin equals the amount sent'] },
  { version: '2.2.0', date: '2026-09-07', title: 'Regional quotes', changes: ['Regional quotes'] },
  { version: '2.1.0', date: '2026-09-05', title: 'Limit orders', changes: ['Limit orders'] },
  {
    version: '2.0.0',
    date: '2026-08-19',
    title: 'v2 envelope',
    changes: [
      'v2 envelope',
      'Per-key metering',
      'Idempotency',
      'sltp',
      'markets',
      'balance',
      'trades',
      'time',
      'ETag',
      'Many keys',
      'Stream',
      'MCP',
      'Fee and funding fixes',
    ],
  },
];

/** The API contract version the service implements (ping's version). */
export const CURRENT_VERSION = SERVICE_VERSION;
