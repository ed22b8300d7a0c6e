/** The operator CLI's command line, parsed with node:util parseArgs into one command. Pure. */
import { parseArgs } from 'node:util';
import { isPlanId, isPlanSource, PLAN_IDS, PLAN_SOURCES, type PlanId, type PlanSource } from '../../shared/paper/plans.js';

export const USAGE = `usage: npm run cli -- <command> [options]
  keys create --email E [--plan ${PLAN_IDS.join('|')}] [--book NAME] [--name N] [--secret]
                                                 create a key (and the account); prints the key once; --secret gives it
                                                 an HMAC secret for the Binance dialect (/fapi), printed once too
  keys list   --email E                          id, name, book, created, revoked, calls, last (never the key)
  keys rename --email E --id KEY_ID --name N
  keys revoke --email E --id KEY_ID [--end-sessions]
                                                 --end-sessions also ends the account's site sessions, so a session
                                                 holder cannot make new keys
  sessions end --email E                         ends every site session of the account (sign out everywhere)
  plans set   --email E --plan P --days N [--source ${PLAN_SOURCES.join('|')}]
                                                 P for N days; added to the end of the same running paid plan;
                                                 --source trial grants the free month /usage counts down (default paid)
  audit       [--email E]                        recomputes every book's balance, realized P&L, wins and losses from its
                                                 closed trades since its last reset; prints each difference, exit 1 if any
  webhooks redeliver --email E --hook ID [--since MS]
                                                 re-queues the hook's failed deliveries (failed at or after MS, epoch ms);
                                                 the receiver sees the same X-PD-Delivery ids
  mail outbox [--email E]                        the development outbox (no SMTP_URL): the newest sign-in links, as full URLs
  reindex                                        rebuilds the per-symbol trigger and order indexes from the open positions
                                                 and resting orders (after an unplanned failover or a per-shard restore),
                                                 and the trade prune index from the closed trades
options: --json prints JSON; --help prints this. Needs REDIS_URL (the service's Redis).`;

export type CliCommand =
  | { kind: 'help' }
  | { kind: 'keys-create'; email: string; plan?: PlanId; book?: string; name?: string; secret: boolean; json: boolean }
  | { kind: 'keys-list'; email: string; json: boolean }
  | { kind: 'keys-rename'; email: string; id: string; name: string; json: boolean }
  | { kind: 'keys-revoke'; email: string; id: string; endSessions: boolean; json: boolean }
  | { kind: 'sessions-end'; email: string; json: boolean }
  | { kind: 'plans-set'; email: string; plan: PlanId; days: number; source: PlanSource; json: boolean }
  | { kind: 'audit'; email?: string; json: boolean }
  | { kind: 'webhooks-redeliver'; email: string; hook: string; since: number; json: boolean }
  | { kind: 'mail-outbox'; email?: string; json: boolean }
  | { kind: 'reindex'; json: boolean };

/** A command line the CLI cannot run: one line for the operator, exit code 2. */
export class UsageError extends Error {}

const STRING_OPTIONS = ['email', 'plan', 'book', 'name', 'id', 'days', 'source', 'hook', 'since'] as const;
type StringOption = (typeof STRING_OPTIONS)[number];

const ALLOWED: Record<string, { required: StringOption[]; optional: StringOption[] }> = {
  'keys create': { required: ['email'], optional: ['plan', 'book', 'name'] },
  'keys list': { required: ['email'], optional: [] },
  'keys rename': { required: ['email', 'id', 'name'], optional: [] },
  'keys revoke': { required: ['email', 'id'], optional: [] },
  'sessions end': { required: ['email'], optional: [] },
  'plans set': { required: ['email', 'plan', 'days'], optional: ['source'] },
  audit: { required: [], optional: ['email'] },
  'webhooks redeliver': { required: ['email', 'hook'], optional: ['since'] },
  'mail outbox': { required: [], optional: ['email'] },
  reindex: { required: [], optional: [] },
};

function visible(text: string): string {
  const cleaned = text.replace(/[\u0000-\u001f\u007f-\u009f]/g, '?');
  return cleaned.length > 40 ? `${cleaned.slice(0, 40)}...` : cleaned;
}

function parsePlan(raw: string): PlanId {
  if (!isPlanId(raw)) throw new UsageError(`--plan must be one of ${PLAN_IDS.join(', ')} (got "${visible(raw)}")`);
  return raw;
}

function parseSource(raw: string): PlanSource {
  if (!isPlanSource(raw)) throw new UsageError(`--source must be one of ${PLAN_SOURCES.join(', ')} (got "${visible(raw)}")`);
  return raw;
}

function parseDays(raw: string): number {
  if (!/^\d{1,6}$/.test(raw)) throw new UsageError(`--days must be a whole number of days (got "${visible(raw)}")`);
  return Number(raw);
}

function parseHook(raw: string): string {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(raw)) throw new UsageError(`--hook must be a webhook id like wh... (got "${visible(raw)}")`);
  return raw;
}

function parseSince(raw: string): number {
  if (!/^\d{1,15}$/.test(raw)) throw new UsageError(`--since must be a time in epoch milliseconds (got "${visible(raw)}")`);
  return Number(raw);
}

export function parseCliArgs(argv: string[]): CliCommand {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: true,
      options: {
        ...Object.fromEntries(STRING_OPTIONS.map((name) => [name, { type: 'string', multiple: true }])),
        json: { type: 'boolean' },
        'end-sessions': { type: 'boolean' },
        secret: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      } as Record<
        StringOption | 'json' | 'end-sessions' | 'secret' | 'help',
        { type: 'string' | 'boolean'; multiple?: boolean; short?: string }
      >,
    });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message.split('\n')[0] : String(error));
  }
  const values = parsed.values as Partial<Record<StringOption, string[]>> & {
    json?: boolean;
    help?: boolean;
    'end-sessions'?: boolean;
    secret?: boolean;
  };
  const positionals = parsed.positionals;
  if (values.help || positionals[0] === 'help') return { kind: 'help' };
  const words = positionals[0] === 'audit' || positionals[0] === 'reindex' ? 1 : 2;
  const command = positionals.slice(0, words).join(' ');
  const allowed = Object.hasOwn(ALLOWED, command) ? ALLOWED[command] : undefined;
  if (!allowed || positionals.length !== words) {
    const what = positionals.length === 0 ? 'no command given' : `unknown command "${visible(positionals.join(' '))}"`;
    throw new UsageError(
      `${what}: try keys create|list|rename|revoke, sessions end, plans set, audit, reindex, webhooks redeliver or mail outbox (--help)`,
    );
  }
  const one: Partial<Record<StringOption, string>> = {};
  for (const name of STRING_OPTIONS) {
    const given = values[name];
    if (given === undefined) continue;
    if (!allowed.required.includes(name) && !allowed.optional.includes(name)) throw new UsageError(`${command} takes no --${name}`);
    if (given.length > 1) throw new UsageError(`--${name} is given ${given.length} times; give it once`);
    one[name] = given[0];
  }
  const missing = allowed.required.filter((name) => one[name] === undefined);
  if (missing.length > 0) throw new UsageError(`${command} needs ${missing.map((name) => `--${name}`).join(', ')}`);
  const json = values.json === true;
  if (values['end-sessions'] === true && command !== 'keys revoke') throw new UsageError(`${command} takes no --end-sessions`);
  if (values.secret === true && command !== 'keys create') throw new UsageError(`${command} takes no --secret`);
  const email = one.email ?? '';
  switch (command) {
    case 'keys create':
      return {
        kind: 'keys-create',
        email,
        secret: values.secret === true,
        json,
        ...(one.plan !== undefined ? { plan: parsePlan(one.plan) } : {}),
        ...(one.book !== undefined ? { book: one.book } : {}),
        ...(one.name !== undefined ? { name: one.name } : {}),
      };
    case 'keys list':
      return { kind: 'keys-list', email, json };
    case 'keys rename':
      return { kind: 'keys-rename', email, id: one.id ?? '', name: one.name ?? '', json };
    case 'keys revoke':
      return { kind: 'keys-revoke', email, id: one.id ?? '', endSessions: values['end-sessions'] === true, json };
    case 'sessions end':
      return { kind: 'sessions-end', email, json };
    case 'audit':
      return { kind: 'audit', json, ...(one.email !== undefined ? { email } : {}) };
    case 'reindex':
      return { kind: 'reindex', json };
    case 'mail outbox':
      return { kind: 'mail-outbox', json, ...(one.email !== undefined ? { email } : {}) };
    case 'webhooks redeliver':
      return { kind: 'webhooks-redeliver', email, hook: parseHook(one.hook ?? ''), since: parseSince(one.since ?? '0'), json };
    default:
      return {
        kind: 'plans-set',
        email,
        plan: parsePlan(one.plan ?? ''),
        days: parseDays(one.days ?? ''),
        source: parseSource(one.source ?? 'paid'),
        json,
      };
  }
}
