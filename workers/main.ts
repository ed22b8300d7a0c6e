import { ConfigError, loadConfig } from '../shared/core/config.js';
import { applyHeapSettings } from '../shared/core/heap-settings.js';
import { shutdownOnSignal } from '../shared/core/shutdown.js';
import { RedisMissingError } from '../shared/redis/embedded.js';
import { DEMO_EMAIL } from '../ops/demo/demo-key.js';
import { startService, type RunningService } from './service.js';

function printBanner(running: RunningService): void {
  if (!running.apiUrl) return;
  const market = running.simUrl ? `, simulated market at ${running.simUrl} (control plane: POST ${running.simUrl}/__sim/price)` : '';
  process.stdout.write(`\nPerpdesk is up at ${running.apiUrl}${market}\n  try ${running.apiUrl}/api/v1/prices and the docs at ${running.apiUrl}/docs\n`);
  if (running.demoApiKey) {
    process.stdout.write(`  demo API key: ${running.demoApiKey} (new at every demo start)\n  try curl -H 'X-API-Key: ${running.demoApiKey}' ${running.apiUrl}/api/bot/v1/usage\n`);
  }
  if (running.redisDataDir) {
    process.stdout.write(`  Redis: ${running.redisUrl} (a private redis-server, data in ${running.redisDataDir}; stopped with the service)\n`);
    if (running.demoApiKey) process.stdout.write(`  try REDIS_URL=${running.redisUrl} npm run cli -- keys list --email ${DEMO_EMAIL}\n`);
  }
  process.stdout.write('\n');
}

/** The one entry point: ROLE=all|api|feed|worker. */
async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig(process.env);
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
    running = await startService(config);
  } catch (error) {
    if (error instanceof RedisMissingError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  const { logger } = running;
  onSignal = shutdownOnSignal({ graceMs: config.shutdownGraceMs, stop: (steps) => running.stop(steps), report: (level, message, fields) => logger[level](fields, message) });
  if (requested) onSignal(requested);
  else printBanner(running);
}

await main();
