/**
 * An OpenAI-compatible chat-completions provider as an Analyst: it gets the brief and the question, must
 * answer JSON { answer, plan } within the timeout, and its answer is checked (shape, a plan on the right
 * side of its entry) before it is used. Any failure throws; the AI service then answers with the
 * built-in analyst and says so.
 */
import Joi from 'joi';
import { request } from 'undici';
import type { Analyst, AnalystAnswer, AnalystQuestion, TradePlan } from './brief.js';

export interface ProviderSettings {
  baseUrl: string;
  model: string;
  apiKey: string;
  timeoutMs: number;
}

const SYSTEM_PROMPT =
  'You are a crypto derivatives analyst. Answer the question only from the JSON brief given (prices in USDT, money in USD, ' +
  'funding in percent per interval). Reply with a JSON object {"answer": string, "plan": null | {"bias": "long"|"short", ' +
  '"entry": number, "stop": number, "targets": number[1..3], "leverage": number}}. Give a plan only when the brief shows a setup. ' +
  'Write the answer in the language named by lang.';

const planSchema = Joi.object({
  bias: Joi.string().valid('long', 'short').required(),
  entry: Joi.number().positive().required(),
  stop: Joi.number().positive().required(),
  targets: Joi.array().items(Joi.number().positive()).min(1).max(3).required(),
  leverage: Joi.number().min(1).max(1000).required(),
}).unknown(true);

const replySchema = Joi.object({
  answer: Joi.string().trim().min(1).max(8000).required(),
  plan: planSchema.allow(null).default(null),
}).unknown(true);

/** A plan whose stop and targets sit on the right sides of its entry. */
function coherent(plan: TradePlan): boolean {
  const sign = plan.bias === 'long' ? 1 : -1;
  return sign * (plan.entry - plan.stop) > 0 && plan.targets.every((target) => sign * (target - plan.entry) > 0);
}

/** What was wrong with the provider's answer, in a plain phrase a caller may see (fallback_reason). */
export class ProviderAnswerError extends Error {}

/** The provider's message content as a checked answer, or a ProviderAnswerError saying what was wrong with it. */
export function parseProviderReply(content: unknown): { answer: string; plan: TradePlan | null } {
  if (typeof content !== 'string') throw new ProviderAnswerError('the provider answered without message content');
  let parsed: unknown;
  try {
    parsed = JSON.parse(content.replace(/^\s*```(?:json)?\s*|\s*```\s*$/g, ''));
  } catch {
    throw new ProviderAnswerError('the provider answer is not JSON');
  }
  const { value, error } = replySchema.validate(parsed, { stripUnknown: true });
  if (error) throw new ProviderAnswerError(`the provider answer does not fit: ${error.message}`);
  const reply = value as { answer: string; plan: TradePlan | null };
  if (reply.plan && !coherent(reply.plan))
    throw new ProviderAnswerError('the provider plan puts its stop or a target on the wrong side of the entry');
  return reply;
}

export function providerAnalyst(settings: ProviderSettings): Analyst {
  const url = `${settings.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  return {
    name: `provider:${settings.model}`,
    async answer({ brief, question, lang }: AnalystQuestion): Promise<AnalystAnswer> {
      const response = await request(url, {
        method: 'POST',
        signal: AbortSignal.timeout(settings.timeoutMs),
        headers: { 'content-type': 'application/json', authorization: `Bearer ${settings.apiKey}` },
        body: JSON.stringify({
          model: settings.model,
          temperature: 0,
          response_format: { type: 'json_object' },
          messages: [
            { role: 'system', content: SYSTEM_PROMPT },
            { role: 'user', content: JSON.stringify({ lang, question, brief }) },
          ],
        }),
      });
      const text = await response.body.text();
      if (response.statusCode >= 400) throw new ProviderAnswerError(`the provider answered HTTP ${response.statusCode}`);
      let body: { choices?: { message?: { content?: unknown } }[] };
      try {
        body = JSON.parse(text) as typeof body;
      } catch {
        throw new ProviderAnswerError('the provider response is not JSON');
      }
      const reply = parseProviderReply(body.choices?.[0]?.message?.content);
      return { answer: reply.answer, plan: reply.plan, bias: reply.plan?.bias ?? 'neutral', reasons: [] };
    },
  };
}
