import { ConfigError, loadConfig } from '../shared/core/config.js';
import { applyHeapSettings } from '../shared/core/heap-settings.js';
import { RedisMissingError } from '../shared/redis/embedded.js';
import { startService } from './service.js';

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
  let service;
  try {
    service = await startService(config);
  } catch (error) {
    if (error instanceof RedisMissingError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  const running = service;
  if (running.apiUrl) {
    const market = running.simUrl ? `, simulated market at ${running.simUrl} (control plane: POST ${running.simUrl}/__sim/price)` : '';
    process.stdout.write(`\nPerpdesk is up at ${running.apiUrl}${market}\n  try ${running.apiUrl}/api/v1/prices and the docs at ${running.apiUrl}/docs\n`);
    if (running.demoApiKey) {
      process.stdout.write(`  demo API key: ${running.demoApiKey} (new at every demo start)\n  try curl -H 'X-API-Key: ${running.demoApiKey}' ${running.apiUrl}/api/bot/v1/usage\n`);
    }
    process.stdout.write('\n');
  }
  const shutdown = (signal: string): void => {
    running.logger.info({ signal }, 'shutting down');
    running.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        running.logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
}

await main();
