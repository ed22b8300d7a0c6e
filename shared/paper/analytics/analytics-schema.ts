/** The JSON schemas of GET /equity and GET /report (v1's bodies), held to their types by objectSchema. */
import type { EquityPoint } from '../../engine/analytics/equity-curve.js';
import type { Finding, GroupStats, ReportTotals } from '../../engine/analytics/report-stats.js';
import type { Skill } from '../../engine/analytics/skill.js';
import { arrayOf, boolean, epochMs, integer, nullable, number, objectSchema, string, type JsonSchema } from '../../core/json-schema.js';
import type { EquityBody, ReportBody } from './analytics-service.js';

const pointSchema = objectSchema<EquityPoint>(
  'One point of the curve: running totals since the reset at time t',
  {
    t: epochMs('The point, ms (the first point after a reset is the reset itself)'),
    realized_pnl_usd: number('Realized P&L since the reset'),
    equity_usd: number('Starting balance plus the realized P&L'),
    closes: integer('Closes in the step that ends at t'),
  },
  {},
);

/** v1's body adds ok: true (api/routes/bot-trading/responses.ts). */
export const equitySchema = objectSchema<Omit<EquityBody, 'ok'>>(
  'The equity curve',
  {
    points: arrayOf(pointSchema, 'Oldest first'),
    now: number('Equity this moment: balance plus the open positions at mark'),
    starting_balance_usd: number('The balance the book started from at its last reset'),
    max_drawdown_pct: number('Largest fall from a peak of the points, percent of that peak'),
  },
  {},
);

const usdOrNull = (description: string): JsonSchema => nullable(number(description));

const totalsSchema = objectSchema<ReportTotals>(
  'Totals of the closes in the window',
  {
    n: integer('Closes in the window (the same count as closes)'),
    closes: integer(),
    wins: integer(),
    losses: integer(),
    win_rate_pct: usdOrNull('Wins over closes, percent'),
    pnl_usd: number(),
    return_pct: number('P&L over the starting balance, percent'),
    avg_roe_pct: usdOrNull('Mean return on margin per close'),
    best_trade_usd: usdOrNull('Best close'),
    worst_trade_usd: usdOrNull('Worst close'),
    profit_factor: usdOrNull('Gross profit over gross loss; null with no losing close'),
    expectancy_usd: usdOrNull('Mean P&L per close'),
    max_drawdown_pct: number(),
    avg_hold_min: usdOrNull('Mean holding time, minutes'),
    liquidations: integer(),
    fees_usd: number('Fees paid'),
    funding_usd: number('Funding paid (negative: received)'),
  },
  {},
);

const skillSchema = objectSchema<Skill>(
  'The skill score and the baselines it compares with (method: README, "Report: the skill score")',
  {
    score: nullable(integer('0-100; null when too few trades could be priced')),
    n: integer('Trades the score rests on'),
    pnl_usd: number('Their P&L'),
    hold_with_usd: usdOrNull('Holding the same symbols over the window with the same exposure, in the trades direction'),
    hold_against_usd: usdOrNull('The same, against the trades direction'),
    hold_percentile: usdOrNull('Percentile of the P&L among the two holds'),
    random_draws: integer('Seeded random books drawn'),
    random_median_usd: usdOrNull('Median P&L of the random books'),
    random_percentile: usdOrNull('Percentile of the P&L among the random books'),
    method: string(),
    note: string('Why there is no score'),
  },
  { note: true },
);

const groupSchema = objectSchema<GroupStats>(
  'The closes of one group',
  {
    closes: integer(),
    wins: integer(),
    win_rate_pct: usdOrNull('percent'),
    pnl_usd: number(),
    avg_pnl_usd: usdOrNull('per close'),
  },
  {},
);

const groups = (description: string): JsonSchema => ({ type: 'object', additionalProperties: groupSchema, description });

const findingSchema = objectSchema<Finding>(
  'One finding and the closes it rests on',
  {
    dimension: string('total, byCoin, byLev, bySide, byHour or byDay'),
    group: nullable(string()),
    n: integer('Closes it rests on'),
    conclusive: boolean('False when n is too small: the text then says so'),
    text: string(),
  },
  {},
);

export const reportSchema = objectSchema<ReportBody>(
  'The trading report of the window; breakdowns and findings on paid plans (Free: 30 days, totals and skill)',
  {
    days: integer(),
    total: totalsSchema,
    skill: skillSchema,
    plan: string('The plan the report was made for'),
    breakdowns: boolean('True when the plan includes breakdowns and findings'),
    premium: boolean('Deprecated alias of breakdowns'),
    locked: arrayOf(string(), 'The parts withheld on this plan'),
    byCoin: groups('By symbol'),
    byLev: groups('By leverage band'),
    bySide: groups('long and short'),
    byHour: groups('By the UTC hour the trade was opened'),
    byDay: groups('By the UTC weekday the trade was opened (sun..sat)'),
    findings: arrayOf(findingSchema),
  },
  { byCoin: true, byLev: true, bySide: true, byHour: true, byDay: true, findings: true },
);
