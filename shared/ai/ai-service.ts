/**
 * /ai: a question about one symbol answered from its brief, on paid plans, within the account's daily
 * reads. The provider (when configured) answers first; when it fails or times out the built-in analyst
 * answers instead, and `analyst` says which did.
 */
import type { Clock } from '../core/clock.js';
import { AppError } from '../core/errors.js';
import type { KeyContext } from '../paper/key-context.js';
import { PLANS } from '../paper/plans.js';
import type { AiQuotaStore } from './ai-quota-store.js';
import type { BriefService } from './brief-service.js';
import type { Analyst, AnalystAnswer, AnswerLang, Brief, TradePlan } from './brief.js';
import { builtInAnalyst } from './built-in-analyst.js';
import { ProviderAnswerError } from './provider-analyst.js';

export interface AiQuestion {
  symbol: string;
  intervalMinutes: number;
  question: string;
  lang: AnswerLang;
}

export interface AiReply {
  ok: true;
  answer: string;
  plan: TradePlan | null;
  bias: AnalystAnswer['bias'];
  brief: Brief;
  /** built-in, or provider:<model>. */
  analyst: string;
  /** Why the provider's answer was not used, when it was asked and failed. */
  fallback_reason?: string;
  reads: { used: number; limit: number; left: number };
}

export interface AiServiceDeps {
  briefs: BriefService;
  quota: AiQuotaStore;
  clock: Clock;
  /** The provider; undefined: the built-in analyst answers every question. */
  provider?: Analyst;
  /** Told each provider failure with its full error (the log); the answer names it in a plain phrase only. */
  onProviderError?: (error: unknown) => void;
}

const DAY_MS = 86_400_000;

export class AiService {
  constructor(private readonly deps: AiServiceDeps) {}

  async ask(auth: KeyContext, question: AiQuestion): Promise<AiReply> {
    const limit = auth.plan.limits.aiReadsPerDay;
    if (limit <= 0) {
      throw new AppError('plan_required', `/ai needs the ${PLANS.pro.label} plan or above`, {
        plan_needed: 'pro',
        hint:
          `${PLANS.pro.label} includes ${PLANS.pro.aiReadsPerDay} reads a day, ${PLANS.max.label} ${PLANS.max.aiReadsPerDay}, ` +
          `${PLANS.business.label} ${PLANS.business.aiReadsPerDay}`,
        upgrade: '/api/apiplan',
      });
    }
    // the brief first: an unknown symbol costs no read
    const brief = await this.deps.briefs.brief(question.symbol, question.intervalMinutes);
    const now = this.deps.clock.now();
    const { taken, used } = await this.deps.quota.take(auth.accountId, limit, now);
    if (!taken) {
      const retryAfter = Math.ceil((Math.floor(now / DAY_MS + 1) * DAY_MS - now) / 1000);
      throw new AppError('ai_quota_exceeded', `the ${limit} /ai reads of today are used; the count restarts at 00:00 UTC`, {
        limit,
        used,
        retry_after: retryAfter,
      });
    }
    const asked = { brief, question: question.question, lang: question.lang };
    const { answer, analyst, fallbackReason } = await this.answer(asked);
    return {
      ok: true,
      answer: answer.answer,
      plan: answer.plan,
      bias: answer.bias,
      brief,
      analyst,
      ...(fallbackReason ? { fallback_reason: fallbackReason } : {}),
      reads: { used, limit, left: limit - used },
    };
  }

  private async answer(
    asked: Parameters<Analyst['answer']>[0],
  ): Promise<{ answer: AnalystAnswer; analyst: string; fallbackReason?: string }> {
    const { provider } = this.deps;
    if (provider) {
      try {
        return { answer: await provider.answer(asked), analyst: provider.name };
      } catch (error) {
        // the reply says why in a plain phrase (fallback_reason); the error itself, which may name the provider's address, goes to the log
        this.deps.onProviderError?.(error);
        const reason =
          error instanceof ProviderAnswerError
            ? error.message
            : error instanceof Error && error.name === 'TimeoutError'
              ? 'the provider timed out'
              : 'the provider could not be reached';
        return { answer: await builtInAnalyst.answer(asked), analyst: builtInAnalyst.name, fallbackReason: reason };
      }
    }
    return { answer: await builtInAnalyst.answer(asked), analyst: builtInAnalyst.name };
  }
}
