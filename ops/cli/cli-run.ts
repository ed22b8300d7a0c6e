/**
 * The operator CLI as a function: argv and environment in, exit code and output out.
 * Exit codes: 0 done; 1 refused (max_keys, max_books, not_found), differences found by the audit, or Redis unreachable;
 * 2 bad arguments or config.
 */
import { systemClock, type Clock } from '../../shared/core/clock.js';
import { ConfigError, loadConfig } from '../../shared/config.js';
import { isAppError, type ErrorCode } from '../../shared/core/errors.js';
import { createDomain } from '../../shared/domain.js';
import { closeRedis, createRedis, redisHosts } from '../../shared/redis/connection.js';
import { parseCliArgs, USAGE, UsageError } from './cli-args.js';
import { runCommand } from './cli-commands.js';
import { runAudit, runMailOutbox, runRedeliver } from './cli-ops.js';
import { LedgerReader } from '../../shared/paper/audit/ledger-reader.js';
import { reindexAll } from '../../shared/paper/audit/reindex.js';
import { sessionEnder } from './cli-sessions.js';

export interface CliResult {
  code: 0 | 1 | 2;
  stdout: string;
  /** One line when the command failed. */
  stderr: string;
}

/** Input refused for its form, not for the state of the account. */
const ARGUMENT_CODES: ReadonlySet<ErrorCode> = new Set(['invalid_param', 'missing_param', 'bad_book']);

const oneLine = (text: string): string => `${text.replace(/\s+/g, ' ').trim()}\n`;
const failed = (code: 1 | 2, line: string): CliResult => ({ code, stdout: '', stderr: oneLine(line) });

export async function runCli(argv: string[], env: Record<string, string | undefined>, clock: Clock = systemClock): Promise<CliResult> {
  let command;
  try {
    command = parseCliArgs(argv);
  } catch (error) {
    if (error instanceof UsageError) return failed(2, `error: ${error.message}`);
    throw error;
  }
  if (command.kind === 'help') return { code: 0, stdout: `${USAGE}\n`, stderr: '' };
  let config;
  try {
    config = loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return failed(2, `config error: ${error.message}`);
    throw error;
  }
  const { redisUrl } = config;
  if (!redisUrl)
    return failed(2, "error: REDIS_URL is not set; the CLI works on the service's Redis (e.g. REDIS_URL=redis://127.0.0.1:6379)");
  const redis = createRedis(redisUrl, { maxRetriesPerRequest: 1, retryStrategy: (times) => (times > 3 ? null : times * 200) });
  redis.on('error', () => undefined); // a failed command reports it; the connection's own errors would only repeat it
  try {
    const domain = createDomain({ config, redis, clock });
    const endSessions = sessionEnder(domain.stores.site, domain.accounts.accounts, clock);
    if (command.kind === 'mail-outbox') return { code: 0, stdout: `${await runMailOutbox(command, domain.stores.site)}\n`, stderr: '' };
    if (command.kind === 'reindex') {
      const counts = await reindexAll(redis);
      const text =
        `reindex: ${counts.positions} open positions and ${counts.orders} resting orders in ${counts.books} books of ` +
        `${counts.accounts} accounts indexed; ${counts.tradeBooks} books with closed trades in the prune index`;
      return { code: 0, stdout: `${command.json ? JSON.stringify(counts, null, 2) : text}\n`, stderr: '' };
    }
    if (command.kind === 'audit' || command.kind === 'webhooks-redeliver') {
      const ran =
        command.kind === 'audit'
          ? await runAudit(command, redis)
          : await runRedeliver(command, { redisUrl, webhooks: domain.stores.webhooks, reader: new LedgerReader(redis) });
      return { code: ran.code, stdout: `${ran.stdout}\n`, stderr: '' };
    }
    const stdout = await runCommand(command, domain.accounts.service, () => clock.now(), endSessions);
    return { code: 0, stdout: `${stdout}\n`, stderr: '' };
  } catch (error) {
    if (isAppError(error)) return failed(ARGUMENT_CODES.has(error.code) ? 2 : 1, `error: ${error.code}: ${error.message}`);
    if (redis.status !== 'ready') return failed(1, `error: cannot reach Redis at ${redisHosts(redisUrl)} (REDIS_URL)`);
    return failed(1, `error: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    await closeRedis(redis);
  }
}
