/** The answers of /replay; v2 drops their ok. */
import {
  arrayOf,
  boolean,
  bodySchema,
  epochMs,
  integer,
  number,
  okTrue,
  ref,
  string,
  type JsonSchema,
} from '../../../shared/core/json-schema.js';

const bar = bodySchema({ time: integer('Open time, unix seconds'), open: number(), high: number(), low: number(), close: number() });

export const REPLAY_RESPONSES = {
  view: bodySchema(
    {
      running: boolean('True until the cursor reaches the end of the day'),
      id: string('Replay id (rp...)'),
      symbol: string(),
      day: string('YYYY-MM-DD'),
      speed: number(),
      start_ts: epochMs('First millisecond of the day'),
      end_ts: epochMs('End of the day'),
      cursor_ts: epochMs('Where the replay is: its trading calls fill and mark at price'),
      cursor_iso: string(),
      progress_pct: number(),
      price: number('Close of the last minute ended at the cursor (the first open before any)'),
      finished: boolean(),
      bars: arrayOf(bar, 'Bars of the minutes ended at the cursor, oldest first'),
    },
    ['id', 'start_ts', 'end_ts'],
  ),
  act: bodySchema({
    ok: okTrue,
    replay: {
      anyOf: [
        bodySchema({
          id: string('rp...'),
          symbol: string(),
          day: string(),
          speed: number(),
          start_ts: epochMs(),
          end_ts: epochMs(),
          candles: integer('1-minute candles of the day'),
          first_price: number(),
        }),
        bodySchema({
          closes: integer(),
          wins: integer(),
          losses: integer(),
          win_rate_pct: number(),
          pnl_usd: number(),
          return_pct: number('pnl_usd over the 10000 starting balance, percent'),
          liquidations: integer(),
          trades: arrayOf(ref('Trade'), 'The last 50 closed trades of the journal'),
        }),
      ],
      description: 'start: the replay; stop: its summary',
    },
  }),
} satisfies Record<string, JsonSchema>;
