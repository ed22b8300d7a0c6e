/** Runs one parsed CLI command against the account service and renders its output. */
import type { AccountService } from '../../shared/paper/accounts/account-service.js';
import type { KeySummary } from '../../shared/paper/accounts/key-store.js';
import { DAY_MS, type StoredPlan } from '../../shared/paper/accounts/plan-terms.js';
import { USAGE, type CliCommand } from './cli-args.js';

/** ISO time to the second, or '-'. */
export function isoTime(ms: number | null): string {
  return ms === null ? '-' : new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** A key as listed: never the key itself nor its digest (KeySummary holds neither). */
function keyJson(key: KeySummary): Record<string, unknown> {
  return {
    id: key.id,
    name: key.name,
    book: key.book,
    created: isoTime(key.created),
    revoked: key.revokedAt !== null,
    revoked_at: key.revokedAt === null ? null : isoTime(key.revokedAt),
    calls: key.calls,
    last: key.lastCallAt === null ? null : isoTime(key.lastCallAt),
  };
}

export function keyTable(keys: KeySummary[]): string {
  const header = ['id', 'name', 'book', 'created', 'revoked', 'calls', 'last'];
  const rows = keys.map((key) => [
    key.id,
    key.name,
    key.book,
    isoTime(key.created),
    isoTime(key.revokedAt),
    String(key.calls),
    isoTime(key.lastCallAt),
  ]);
  const widths = header.map((title, col) => Math.max(title.length, ...rows.map((row) => [...row[col]].length)));
  const line = (cells: string[]): string =>
    cells
      .map((cell, col) => cell + ' '.repeat(widths[col] - [...cell].length))
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)].join('\n');
}

function planLine(plan: StoredPlan, now: number): string {
  if (plan.until === null) return 'free';
  const days = Math.ceil((plan.until - now) / DAY_MS);
  const source = plan.source === undefined ? '' : `, ${plan.source}`;
  return days > 0
    ? `${plan.plan} until ${isoTime(plan.until)} (${days} days left${source})`
    : `free (${plan.plan} ended ${isoTime(plan.until)})`;
}

const json = (value: unknown): string => JSON.stringify(value, null, 2);

/** The command's output for stdout. Refusals are thrown as AppError. */
export type AccountCommand = Exclude<CliCommand, { kind: 'audit' | 'webhooks-redeliver' | 'mail-outbox' | 'reindex' }>;

/** Ends every site session of an account by its e-mail (not_found without one); answers the address and how many ended. */
export type EndSessions = (email: string) => Promise<{ email: string; ended: number }>;

export async function runCommand(
  command: AccountCommand,
  accounts: AccountService,
  now: () => number,
  endSessions: EndSessions,
): Promise<string> {
  switch (command.kind) {
    case 'help':
      return USAGE;
    case 'keys-create': {
      const created = await accounts.createKey(command);
      const { account, key } = created;
      if (command.json) {
        return json({
          api_key: created.apiKey,
          ...(created.secret === undefined ? {} : { secret: created.secret }),
          key: keyJson(key),
          account: {
            id: account.id,
            email: account.email,
            created: created.accountCreated,
            plan: account.plan.plan,
            plan_until: account.plan.until === null ? null : isoTime(account.plan.until),
          },
        });
      }
      return [
        `API key (shown this once, store it now): ${created.apiKey}`,
        ...(created.secret === undefined ? [] : [`secret: ${created.secret}`]),
        `  key ${key.id}, name ${key.name}, book ${key.book}`,
        `  account ${account.id} ${account.email}${created.accountCreated ? ' (new)' : ''}, plan ${planLine(account.plan, now())}`,
      ].join('\n');
    }
    case 'keys-list': {
      const { account, keys } = await accounts.listKeys(command.email);
      if (command.json) return json({ account: { id: account.id, email: account.email }, keys: keys.map(keyJson) });
      return `${account.email} (${account.id}), plan ${planLine(account.plan, now())}\n${keyTable(keys)}`;
    }
    case 'keys-rename': {
      const key = await accounts.renameKey(command.email, command.id, command.name);
      return command.json ? json({ key: keyJson(key) }) : `renamed ${key.id} to ${key.name}`;
    }
    case 'keys-revoke': {
      const { key, alreadyRevoked } = await accounts.revokeKey(command.email, command.id);
      // after the revoke: a session left open could make a new key in between
      const ended = command.endSessions ? (await endSessions(command.email)).ended : null;
      if (command.json)
        return json({ key: keyJson(key), already_revoked: alreadyRevoked, ...(ended === null ? {} : { sessions_ended: ended }) });
      const revoked = alreadyRevoked
        ? `${key.id} (${key.name}) was already revoked at ${isoTime(key.revokedAt)}`
        : `revoked ${key.id} (${key.name}); its usage history is kept`;
      return ended === null ? revoked : `${revoked}\nended ${ended} site session(s) of ${command.email}`;
    }
    case 'sessions-end': {
      const { email, ended } = await endSessions(command.email);
      return command.json ? json({ email, sessions_ended: ended }) : `ended ${ended} site session(s) of ${email}`;
    }
    case 'plans-set': {
      const { account, plan } = await accounts.setPlan(command.email, command.plan, command.days, { source: command.source });
      if (command.json) {
        return json({
          account: { id: account.id, email: account.email },
          plan: plan.plan,
          plan_until: plan.until === null ? null : isoTime(plan.until),
          plan_source: plan.source ?? null,
        });
      }
      return `${account.email}: ${planLine(plan, now())}`;
    }
  }
}
