/** POST /ai (v1 and v2): a question about one symbol, answered from its brief; paid plans, reads per day. */
import type { AiService } from '../../../shared/ai/ai-services.js';
import type { AnswerLang } from '../../../shared/ai/brief.js';
import type { KeyContext } from '../../../shared/paper/key-context.js';
import type { Authenticate } from '../../middleware/authenticate.js';
import { botRoute } from '../../routing/bot-route.js';
import { defineRoutes, type RouteGroup } from '../../routing/route-catalog.js';
import { BOT_INTERVALS } from '../market/schemas.js';
import { aiBody, aiResponse } from './schemas.js';

export interface AiRouteOptions {
  ai: AiService;
  authenticate: Authenticate;
}

export function aiRoutes({ ai, authenticate }: AiRouteOptions): RouteGroup {
  return defineRoutes(
    botRoute('/ai', {
      keyed: true,
      method: 'post',
      tag: 'bot ai',
      summary:
        'Ask about one symbol: an answer from its brief (indicators, funding, open interest, long/short, liquidations, macro) and a ' +
        'plan when a setup is seen',
      description:
        'Paid plans: 50 (Pro), 200 (Max) or 500 (Business) reads a day per account, counted in UTC days across its keys; Free ' +
        'answers 402 plan_required, ' +
        'past the quota 429 ai_quota_exceeded with retry_after. The built-in analyst applies written rules to the brief ' +
        '(deterministic); with AI_BASE_URL, ' +
        'AI_MODEL and AI_API_KEY set, an OpenAI-compatible provider answers first and the built-in answer replaces it when it fails ' +
        'or times out (analyst says which).',
      body: aiBody,
      response: aiResponse,
      errors: ['plan_required', 'ai_quota_exceeded', 'symbol_required', 'bad_interval', 'unknown_symbol', 'upstream_unavailable'],
      example: {
        body: { symbol: 'BTC', interval: '60', question: 'Is a long worth it here?' },
        response: {
          ok: true,
          answer:
            'BTCUSDT 1h: bias long (rule points +2 = +2 / +0 / +0: technicals / positioning / flow).\nPlan: long at 65000, stop 64370, ...',
          plan: { bias: 'long', entry: 65000, stop: 64370, targets: [65630, 66260, 66890], leverage: 20 },
          bias: 'long',
          brief: { symbol: 'BTCUSDT', interval_minutes: 60, price: { price: 65000, change_24h_pct: 1.2, stale: false } },
          analyst: 'built-in',
          reads: { used: 1, limit: 50, left: 49 },
        },
      },
      handle: ({ body, auth }: { body: { symbol: string; interval: string; question: string; lang: AnswerLang }; auth: KeyContext }) =>
        ai.ask(auth, { symbol: body.symbol, intervalMinutes: BOT_INTERVALS[body.interval], question: body.question, lang: body.lang }),
    }),
    { authenticate },
  );
}
