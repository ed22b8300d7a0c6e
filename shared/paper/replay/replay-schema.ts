/** The JSON schemas of the replay answers (the OpenAPI components Replay, ReplayStart, ReplaySummary), held to their view types. */
import { arrayOf, boolean, epochMs, integer, number, objectSchema, ref, string } from '../../core/json-schema.js';
import type { ReplayBar } from './replay-math.js';
import type { ReplayRunning, ReplayStarted, ReplayStopped } from './replay-service.js';

const barSchema = objectSchema<ReplayBar>(
  'A bar of the minutes ended at the cursor',
  { time: integer('Open time, unix seconds'), open: number(), high: number(), low: number(), close: number() },
  {},
);

/** Everything but `running` is absent when the key runs no replay (`{ running: false }`). */
export const replayViewSchema = objectSchema<Pick<ReplayRunning, 'running'> & Partial<Omit<ReplayRunning, 'running'>>>(
  "A key's replay now; { running: false } alone when it runs none",
  {
    running: boolean('True until the cursor reaches the end of the day; false alone when the key runs no replay'),
    id: string('Replay id (rp...)'),
    symbol: string(),
    day: string('YYYY-MM-DD'),
    speed: number('Replayed seconds per real second'),
    start_ts: epochMs('First millisecond of the day'),
    end_ts: epochMs('End of the day'),
    cursor_ts: epochMs('Where the replay is: its trading calls fill and mark at price, stamped with this time'),
    cursor_iso: string(),
    progress_pct: number(),
    price: number("Close of the last minute ended at the cursor (the day's first open before any)"),
    finished: boolean(),
    bars: arrayOf(barSchema, 'Oldest first; none holds a minute after the cursor'),
  },
  {
    id: true,
    symbol: true,
    day: true,
    speed: true,
    start_ts: true,
    end_ts: true,
    cursor_ts: true,
    cursor_iso: true,
    progress_pct: true,
    price: true,
    finished: true,
    bars: true,
  },
);

export const replayStartSchema = objectSchema<ReplayStarted['replay']>(
  'A replay just started',
  {
    id: string('rp...'),
    symbol: string(),
    day: string(),
    speed: number(),
    start_ts: epochMs(),
    end_ts: epochMs(),
    candles: integer('1-minute candles of the day'),
    first_price: number(),
  },
  {},
);

export const replaySummarySchema = objectSchema<ReplayStopped['replay']>(
  "A stopped replay's journal",
  {
    closes: integer(),
    wins: integer(),
    losses: integer(),
    win_rate_pct: number(),
    pnl_usd: number(),
    return_pct: number('pnl_usd over the 10000 starting balance, percent'),
    liquidations: integer(),
    trades: arrayOf(ref('Trade'), 'The last 50 closed trades of the journal, newest first'),
  },
  {},
);
