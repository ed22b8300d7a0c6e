import { ConfigError, loadConfig } from '../shared/config.js';
import { applyHeapSettings } from '../shared/core/heap-settings.js';
import { shutdownOnSignal } from '../shared/core/shutdown.js';
import { RedisMissingError } from '../shared/redis/embedded.js';
import { EvictionPolicyError } from '../shared/redis/eviction-policy.js';
import { startService, type RunningService, type ServiceAddOns } from './service.js';

/** What an entry point adds to the start banner (the demo: its exchange and its key). */
export interface BannerNotes {
  /** After the API's URL on the first line. */
  market?: string;
  /** After the line of things to try. */
  lines?: string[];
  /** After the private Redis's line, when there is one. */
  redisLines?: string[];
}

function printBanner(running: RunningService, notes: BannerNotes): void {
  if (!running.apiUrl) return;
  process.stdout.write(
    `\nPerpdesk is up at ${running.apiUrl}${notes.market ?? ''}\n  try ${running.apiUrl}/api/v1/prices and the docs at ` +
      `${running.apiUrl}/docs\n`,
  );
  for (const line of notes.lines ?? []) process.stdout.write(`  ${line}\n`);
  if (running.redisDataDir) {
    process.stdout.write(
      `  Redis: ${running.redisUrl} (a private redis-server, data in ${running.redisDataDir}; stopped with the service)\n`,
    );
    for (const line of notes.redisLines ?? []) process.stdout.write(`  ${line}\n`);
  }
  process.stdout.write('\n');
}

/** What an entry point adds to the service: around its roles, and to its start banner. */
export interface EntryOptions extends ServiceAddOns {
  banner?(running: RunningService): BannerNotes;
}

/** A process's entry point (workers/main.ts, ops/demo/main.ts): ROLE=all|api|feed|worker. */
export async function runService(env: NodeJS.ProcessEnv, options: EntryOptions = {}): Promise<void> {
  let config;
  try {
    config = loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`config error: ${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  applyHeapSettings(config);
  // Handlers before anything starts: a signal while starting (the private redis-server is in its own
  // process group, out of a terminal's reach) stops what started once it has; a second one exits now.
  let requested: string | undefined;
  let onSignal = (signal: string): void => {
    if (requested) {
      process.stderr.write(`${signal} while starting: exiting now\n`);
      process.exit(1);
    }
    requested = signal;
  };
  // SIGHUP: the terminal closed; the private Redis (in its own session) would not get it
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.on(signal, () => onSignal(signal));
  let running;
  try {
    running = await startService(config, options);
  } catch (error) {
    if (error instanceof RedisMissingError || error instanceof EvictionPolicyError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  const { logger } = running;
  onSignal = shutdownOnSignal({
    graceMs: config.shutdownGraceMs,
    stop: (steps) => running.stop(steps),
    report: (level, message, fields) => logger[level](fields, message),
  });
  if (requested) onSignal(requested);
  else printBanner(running, options.banner?.(running) ?? {});
}
