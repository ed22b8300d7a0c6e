import { pino, type DestinationStream, type Logger } from 'pino';
import type { LogLevel } from './process-settings.js';
import { redactSecrets } from './log-redact.js';

export type { Logger };

/**
 * The service's pino logger (stdout unless a destination is given). Every line passes through
 * redactSecrets as it is written, whatever logged it: keys and tokens in URLs, paths, messages and
 * serialized errors never reach the output.
 */
export function createLogger(config: { logLevel: LogLevel }, name = 'perpdesk', destination?: DestinationStream): Logger {
  const options = { name, level: config.logLevel, base: { name }, hooks: { streamWrite: redactSecrets } };
  return destination ? pino(options, destination) : pino(options);
}
