/**
 * The operator commands that read the trading ledger and the webhooks queue: `audit` (read only: it never repairs) and
 * `webhooks redeliver`; and `mail outbox`, the site's development outbox. Each answers an exit code with its output, as runCli does.
 */
import { Queue } from 'bullmq';
import type { RedisClient } from '../../shared/core/redis-client.js';
import { AppError } from '../../shared/core/errors.js';
import { normalizeEmail } from '../../shared/paper/accounts/account-rules.js';
import { LedgerReader, type AuditedAccount, type BookAudit } from '../../shared/paper/audit/ledger-reader.js';
import { QUEUE_PREFIX, QUEUES } from '../../shared/queues/queue-names.js';
import type { WebhookJob } from '../../shared/queues/job-types.js';
import type { WebhookStore } from '../../shared/push/webhook-store.js';
import { closeRedis, createBlockingRedis } from '../../shared/redis/connection.js';
import { readOutbox } from '../../shared/site/site-mail.js';
import type { SiteStore } from '../../shared/site/site-store.js';
import type { CliCommand } from './cli-args.js';

export interface OpsOutput {
  code: 0 | 1;
  stdout: string;
}

type AuditCommand = Extract<CliCommand, { kind: 'audit' }>;
type RedeliverCommand = Extract<CliCommand, { kind: 'webhooks-redeliver' }>;

const json = (value: unknown): string => JSON.stringify(value, null, 2);
const show = (value: number | null): string => (value === null ? 'none' : String(value));

async function accountOf(store: { account(email: string): Promise<AuditedAccount | null> }, rawEmail: string): Promise<AuditedAccount> {
  const email = normalizeEmail(rawEmail);
  const account = await store.account(email);
  if (!account) throw new AppError('not_found', `no account for ${email}`);
  return account;
}

/** Every book of every account (or of the one e-mail), one line per book and field that differs. */
export async function runAudit(command: AuditCommand, redis: RedisClient): Promise<OpsOutput> {
  const reader = new LedgerReader(redis);
  const accounts = command.email === undefined ? await reader.accounts() : [await accountOf(reader, command.email)];
  const audits: BookAudit[] = [];
  for (const account of accounts) audits.push(...(await reader.auditAccount(account)));
  const differing = audits.filter((audit) => audit.differences.length > 0);
  const trades = audits.reduce((sum, audit) => sum + audit.trades, 0);
  const code = differing.length > 0 ? 1 : 0;
  if (command.json) {
    const rows = differing.map(({ account, book, differences }) => ({
      email: account.email,
      account: account.accountId,
      book,
      differences,
    }));
    return { code, stdout: json({ accounts: accounts.length, books: audits.length, trades, differences: rows }) };
  }
  const scope = `${audits.length} books of ${accounts.length} accounts, ${trades} closed trades since their resets`;
  if (code === 0) return { code, stdout: `audit: ${scope}: no differences` };
  const lines = differing.flatMap(({ account, book, differences }) =>
    differences.map(
      (d) => `${account.email} (${account.accountId}) book ${book}: ${d.field} stored ${show(d.stored)} recomputed ${show(d.recomputed)}`,
    ),
  );
  return { code, stdout: [...lines, `audit: ${scope}: ${lines.length} differences in ${differing.length} books`].join('\n') };
}

/** How many failed jobs are read from the webhooks queue at a time. */
const PAGE = 500;

/**
 * Moves the hook's failed deliveries (failed at or after `since`) back to waiting under their own job ids, so the
 * receiver sees the same X-PD-Delivery, with their attempts counted from zero again.
 */
export async function runRedeliver(
  command: RedeliverCommand,
  deps: { redisUrl: string; webhooks: WebhookStore; reader: LedgerReader },
): Promise<OpsOutput> {
  const account = await accountOf(deps.reader, command.email);
  const hook = await deps.webhooks.get(account.accountId, command.hook);
  if (!hook) throw new AppError('webhook_not_found', `no webhook ${command.hook} on ${account.email}`);
  if (!hook.active) {
    throw new AppError('webhook_paused', `webhook ${command.hook} is paused after consecutive failures: its deliveries would be skipped`);
  }
  const connection = createBlockingRedis(deps.redisUrl);
  const queue = new Queue<WebhookJob>(QUEUES.webhooks, { connection, prefix: QUEUE_PREFIX });
  queue.on('error', () => undefined);
  try {
    const ids: string[] = [];
    const matching = [];
    // newest first; pages are read before any job moves, so moving one does not shift the pages
    for (let start = 0; ; start += PAGE) {
      const page = await queue.getFailed(start, start + PAGE - 1);
      for (const job of page) {
        const { data } = job;
        if (data.accountId !== account.accountId || data.hookId !== command.hook) continue;
        if ((job.finishedOn ?? job.timestamp) < command.since) continue;
        matching.push(job);
      }
      if (page.length < PAGE) break;
    }
    let gone = 0;
    for (const job of matching) {
      try {
        await job.retry('failed', { resetAttemptsMade: true, resetAttemptsStarted: true });
        ids.push(String(job.id));
      } catch (error) {
        // removed by its age, or retried by someone else, since the failed set was read
        if (!(await job.isFailed())) gone += 1;
        else throw error;
      }
    }
    if (command.json) return { code: 0, stdout: json({ hook: command.hook, requeued: ids, gone }) };
    const list = ids.length === 0 ? '' : `\n${ids.map((id) => `  ${id}`).join('\n')}`;
    const left = gone === 0 ? '' : `; ${gone} left the failed set meanwhile`;
    return { code: 0, stdout: `re-queued ${ids.length} failed deliveries of ${command.hook} (${account.email})${left}${list}` };
  } finally {
    await queue.close();
    await closeRedis(connection);
  }
}

type MailOutboxCommand = Extract<CliCommand, { kind: 'mail-outbox' }>;

/** The development outbox's newest sign-in links (for one address when given), newest first, as full URLs. */
export async function runMailOutbox(command: MailOutboxCommand, store: SiteStore): Promise<string> {
  const email = command.email === undefined ? undefined : normalizeEmail(command.email);
  const mails = await readOutbox(store, email);
  if (command.json) return json({ mails });
  if (mails.length === 0)
    return `no sign-in links in the development outbox${email ? ` for ${email}` : ''} (mail goes out by SMTP when SMTP_URL is set)`;
  return mails.map((mail) => `${new Date(mail.ts).toISOString()}  ${mail.to}  ${mail.link}`).join('\n');
}
