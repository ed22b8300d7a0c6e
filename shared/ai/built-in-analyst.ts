/**
 * The built-in analyst: fixed rules over the brief, no model and no I/O, so the same brief and question
 * always get the same answer. The rules, in the order they are applied:
 *
 * 1. Technicals (T), from the screener's score: 70 and above +2, 60-69 +1, 31-40 -1, 30 and below -2, else 0.
 * 2. Positioning (P), contrarian: funding at or above +0.03% per interval -1 (longs crowded and paying),
 *    at or below -0.03% +1; longs at or above 65% of accounts -1, at or below 35% +1.
 * 3. Flow (F): liquidations of the last hour, shorts at least twice longs +1 (a squeeze up), longs at least
 *    twice shorts -1.
 * 4. Bias: long when T+P+F >= 2 and T >= 1; short when T+P+F <= -2 and T <= -1; neutral otherwise
 *    (positioning and flow alone never make a bias against the chart).
 * 5. Plan, only with a bias and the indicators' ATR: the screener's setup rule (stop 1.5 ATR from the
 *    price, targets at 1R, 2R, 3R, leverage at most 20). None when RSI is stretched in the bias's direction
 *    (75 and above for a long, 25 and below for a short), a high-impact macro event is less than 24 h away, or
 *    the ATR is too small next to the price for a stop (six significant digits would put it at the entry).
 */
import { buildSetup } from '../screener/score.js';
import type { Analyst, AnalystAnswer, AnalystQuestion, AnswerLang, Brief, TradePlan } from './brief.js';
import { PHRASES, type Phrases } from './analyst-phrases.js';

export const FUNDING_CROWDED_PCT = 0.03;
export const CROWDED_LONG_PCT = 65;
export const CROWDED_SHORT_PCT = 35;
export const FLOW_RATIO = 2;
export const BIAS_AT = 2;
export const RSI_STRETCHED_LONG = 75;
export const RSI_STRETCHED_SHORT = 25;
export const MACRO_GUARD_HOURS = 24;

export interface RuleScore {
  technicals: number;
  positioning: number;
  flow: number;
  total: number;
  reasons: string[];
}

function technicals(score: number): number {
  if (score >= 70) return 2;
  if (score >= 60) return 1;
  if (score <= 30) return -2;
  if (score <= 40) return -1;
  return 0;
}

/** Rules 1-3: the points of each kind and the names of the rules that fired. */
export function scoreBrief(brief: Brief): RuleScore {
  const reasons: string[] = [];
  const fired = (points: number, reason: string): number => {
    reasons.push(reason);
    return points;
  };
  const t = brief.indicators ? technicals(brief.indicators.score) : 0;
  if (t !== 0) reasons.push(t > 0 ? 'technicals_bullish' : 'technicals_bearish');
  let p = 0;
  const { funding_rate_pct: funding, long_pct: longPct } = brief.derivatives;
  if (funding !== null && funding >= FUNDING_CROWDED_PCT) p += fired(-1, 'funding_longs_pay');
  if (funding !== null && funding <= -FUNDING_CROWDED_PCT) p += fired(1, 'funding_shorts_pay');
  if (longPct !== null && longPct >= CROWDED_LONG_PCT) p += fired(-1, 'crowded_long');
  if (longPct !== null && longPct <= CROWDED_SHORT_PCT) p += fired(1, 'crowded_short');
  let f = 0;
  const { long_usd: longsLiquidated, short_usd: shortsLiquidated } = brief.liquidations;
  if (shortsLiquidated > 0 && shortsLiquidated >= FLOW_RATIO * longsLiquidated) f = fired(1, 'shorts_squeezed');
  else if (longsLiquidated > 0 && longsLiquidated >= FLOW_RATIO * shortsLiquidated) f = fired(-1, 'longs_flushed');
  return { technicals: t, positioning: p, flow: f, total: t + p + f, reasons };
}

/** Rule 4. */
export function biasOf(score: RuleScore): 'long' | 'short' | 'neutral' {
  if (score.total >= BIAS_AT && score.technicals >= 1) return 'long';
  if (score.total <= -BIAS_AT && score.technicals <= -1) return 'short';
  return 'neutral';
}

/** Rule 5: the plan, or why there is none (a phrase key). */
export function planOf(
  brief: Brief,
  bias: 'long' | 'short' | 'neutral',
): { plan: TradePlan | null; guard: keyof Phrases['guards'] | null } {
  if (bias === 'neutral') return { plan: null, guard: 'no_bias' };
  const indicators = brief.indicators;
  if (!indicators) return { plan: null, guard: 'no_indicators' };
  if (bias === 'long' ? indicators.rsi >= RSI_STRETCHED_LONG : indicators.rsi <= RSI_STRETCHED_SHORT)
    return { plan: null, guard: 'stretched' };
  if (brief.macro.next_events.some((event) => event.impact >= 3 && event.in_hours < MACRO_GUARD_HOURS))
    return { plan: null, guard: 'macro' };
  const setup = buildSetup(bias, brief.price.price, indicators.atr);
  if (!setup) return { plan: null, guard: 'no_indicators' };
  // prices keep six significant digits: an ATR below that resolution would put the stop or a target at the entry
  if (setup.sl === setup.entry || setup.tp1 === setup.entry) return { plan: null, guard: 'flat' };
  return {
    plan: { bias, entry: setup.entry, stop: setup.sl, targets: [setup.tp1, setup.tp2, setup.tp3], leverage: setup.lev },
    guard: null,
  };
}

type Focus = 'funding' | 'liquidations' | 'macro' | 'plan' | 'general';

/** What the question asks about most, by its words (in any of the three languages). */
export function focusOf(question: string): Focus {
  const q = question.toLowerCase();
  if (/fund|financ/.test(q)) return 'funding';
  if (/liquid|cluster/.test(q)) return 'liquidations';
  if (/fomc|cpi|nfp|macro|event|evento|calend/.test(q)) return 'macro';
  if (/entr|stop|target|objetiv|alvo|plan|long|short|buy|sell|compr|vend/.test(q)) return 'plan';
  return 'general';
}

function compose(
  brief: Brief,
  lang: AnswerLang,
  score: RuleScore,
  bias: 'long' | 'short' | 'neutral',
  focus: Focus,
  plan: ReturnType<typeof planOf>,
): string {
  const say = PHRASES[lang];
  const lines: Record<Exclude<Focus, 'general' | 'plan'> | 'technicals', string | null> = {
    technicals: brief.indicators ? say.technicals(brief.indicators, brief.price) : say.noIndicators,
    funding: say.derivatives(brief.derivatives),
    liquidations: say.liquidations(brief.liquidations),
    macro: brief.macro.next_events[0] ? say.macro(brief.macro.next_events[0]) : say.noMacro,
  };
  const planLine = plan.plan ? say.plan(plan.plan) : say.guards[plan.guard ?? 'no_bias'];
  const order: (keyof typeof lines)[] =
    focus === 'funding' || focus === 'liquidations' || focus === 'macro'
      ? [focus, ...(['technicals', 'funding', 'liquidations', 'macro'] as const).filter((k) => k !== focus)]
      : ['technicals', 'funding', 'liquidations', 'macro'];
  const body = order.map((key) => lines[key]).filter((line): line is string => line !== null);
  const headline = say.headline(brief.symbol, brief.interval_minutes, bias, score);
  return [headline, ...(focus === 'plan' ? [planLine, ...body] : [...body, planLine])].join('\n');
}

/** The rules above as an Analyst. */
export function answerFromRules({ brief, question, lang }: AnalystQuestion): AnalystAnswer {
  const score = scoreBrief(brief);
  const bias = biasOf(score);
  const plan = planOf(brief, bias);
  const reasons = plan.guard && plan.guard !== 'no_bias' ? [...score.reasons, `no_plan_${plan.guard}`] : score.reasons;
  return { answer: compose(brief, lang, score, bias, focusOf(question), plan), plan: plan.plan, bias, reasons };
}

export const builtInAnalyst: Analyst = {
  name: 'built-in',
  answer: async (question) => answerFromRules(question),
};
