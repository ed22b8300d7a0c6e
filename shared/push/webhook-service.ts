/**
 * Webhooks of an account (paid plans): list, add, delete, test. A hook added with a key bound to a
 * book carries that book's events only, and that key sees only its book's hooks; a hook added with
 * an unbound key carries every book's events (a book's carry account with the book's name).
 */
import { randomBytes } from 'node:crypto';
import type { Clock } from '../core/clock.js';
import { AppError } from '../core/errors.js';
import { randomBase62 } from '../paper/accounts/api-key-format.js';
import type { KeyContext } from '../paper/key-context.js';
import { PLANS } from '../paper/plans.js';
import { WEBHOOK_EVENTS, type WebhookEvent } from './push-event.js';
import { WebhookSender } from './webhook-sender.js';
import { deliveryHeaders, SIGNATURE_HEADER, SIGNATURE_SCHEME, SIGNATURE_V2_HEADER, SIGNATURE_V2_SCHEME } from './webhook-signing.js';
import type { WebhookDeliveryBody, WebhookTestView, WebhookView } from './webhook-schema.js';
import type { StoredWebhook, WebhookRecord, WebhookStore } from './webhook-store.js';
import { checkWebhookUrl, UrlRefused, type UrlPolicy } from './webhook-url-guard.js';

export interface WebhookServiceDeps {
  store: WebhookStore;
  policy: UrlPolicy;
  /** A receiver must answer a test within this long. */
  timeoutMs: number;
  clock: Clock;
}

export interface AddWebhookInput {
  url?: string;
  events?: WebhookEvent[];
}

/** What GET shows of a hook: never its secret (returned once, at add). */
function hookView({ record, stats, active }: StoredWebhook): WebhookView {
  return {
    id: record.id,
    url: record.url,
    events: record.events,
    active,
    ...(record.book !== null ? { account: record.book } : {}),
    created: record.created,
    ...stats,
  };
}

export class WebhookService {
  constructor(private readonly deps: WebhookServiceDeps) {}

  async list(ctx: KeyContext): Promise<Record<string, unknown>> {
    this.requirePaid(ctx);
    const hooks = (await this.deps.store.list(ctx.accountId)).filter((hook) => this.visible(ctx, hook.record));
    return {
      webhooks: hooks.map(hookView),
      max: ctx.plan.limits.maxWebhooks,
      events: WEBHOOK_EVENTS,
      signature: {
        header: SIGNATURE_HEADER,
        scheme: SIGNATURE_SCHEME,
        timestamped: { header: SIGNATURE_V2_HEADER, scheme: SIGNATURE_V2_SCHEME },
      },
    };
  }

  async add(ctx: KeyContext, input: AddWebhookInput): Promise<Record<string, unknown>> {
    this.requirePaid(ctx);
    if (input.url === undefined) throw new AppError('bad_url', 'url is required: the https address to POST events to', { param: 'url' });
    try {
      await checkWebhookUrl(input.url, this.deps.policy);
    } catch (error) {
      if (error instanceof UrlRefused) throw new AppError('bad_url', `url refused: ${error.message}`, { param: 'url' });
      throw error;
    }
    const events =
      input.events === undefined || input.events.length === 0
        ? [...WEBHOOK_EVENTS]
        : WEBHOOK_EVENTS.filter((e) => input.events?.includes(e));
    const record: WebhookRecord = {
      id: `wh${randomBase62(16)}`,
      url: input.url,
      secret: `whs_${randomBase62(40)}`,
      events,
      book: ctx.bookBound ? ctx.book : null,
      created: this.deps.clock.now(),
    };
    const max = ctx.plan.limits.maxWebhooks;
    const outcome = await this.deps.store.add(ctx.accountId, record, max);
    if (outcome.kind === 'cap')
      throw new AppError('too_many_webhooks', `the ${ctx.plan.limits.label} plan allows ${max} webhooks: delete one first`, { max });
    const webhook: WebhookView = {
      id: record.id,
      url: record.url,
      secret: record.secret,
      events,
      active: true,
      ...(record.book !== null ? { account: record.book } : {}),
    };
    return { ok: true, webhook };
  }

  async remove(ctx: KeyContext, id: string): Promise<Record<string, unknown>> {
    this.requirePaid(ctx);
    await this.find(ctx, id);
    if (!(await this.deps.store.remove(ctx.accountId, id))) throw this.notFound(id);
    return { ok: true, deleted: id };
  }

  /**
   * Sends a ping event to the hook now and answers what its receiver did. The ping is an attempt
   * like any delivery: it counts in the hook's counters (deliveries when answered 2xx, else
   * failures, consecutive_failures and last_error), as the original counts it.
   */
  async test(ctx: KeyContext, id: string): Promise<Record<string, unknown>> {
    this.requirePaid(ctx);
    const record = await this.find(ctx, id);
    const now = this.deps.clock.now();
    const body = JSON.stringify({
      event: 'ping',
      ts: now,
      hook_id: record.id,
      data: { message: 'test delivery' },
    } satisfies WebhookDeliveryBody);
    const headers = deliveryHeaders({
      event: 'ping',
      deliveryId: `test.${randomBytes(6).toString('hex')}`,
      timestamp: now,
      body,
      secret: record.secret,
    });
    // a sender of its own, closed after: tests are rare, and the API then holds no outbound connections
    const sender = new WebhookSender({ ...this.deps.policy, timeoutMs: this.deps.timeoutMs });
    const result = await sender.send(record.url, body, headers).finally(() => sender.close());
    await this.deps.store.recordAttempt(ctx.accountId, record.id, result, this.deps.clock.now());
    return { ok: true, delivered: result.ok, status: result.status, ms: result.ms, error: result.error } satisfies WebhookTestView;
  }

  private requirePaid(ctx: KeyContext): void {
    if (ctx.plan.limits.maxWebhooks > 0) return;
    throw new AppError('plan_required', `webhooks need the ${PLANS.pro.label} plan or above`, { plan_needed: 'pro' });
  }

  private visible(ctx: KeyContext, record: WebhookRecord): boolean {
    return !ctx.bookBound || record.book === ctx.book;
  }

  private notFound(id: string): AppError {
    return new AppError('webhook_not_found', `no webhook ${id}`, { id });
  }

  private async find(ctx: KeyContext, id: string): Promise<WebhookRecord> {
    const found = await this.deps.store.get(ctx.accountId, id);
    if (!found || !this.visible(ctx, found.record)) throw this.notFound(id);
    return found.record;
  }
}
