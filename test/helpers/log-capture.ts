/** The real logger's output, captured: what createLogger writes to a destination of the test's. */
import { Writable } from 'node:stream';
import { configWith } from '../../shared/core/config.js';
import { createLogger, type Logger } from '../../shared/core/logger.js';

export interface CapturedLog {
  /** A logger at the default level (info) writing here. */
  logger: Logger;
  /** Everything written so far. */
  text(): string;
  /** The written lines, parsed. */
  lines(): Record<string, unknown>[];
  /** The first line (written already or to come) that matches. */
  next(match: (line: Record<string, unknown>) => boolean, timeoutMs?: number): Promise<Record<string, unknown>>;
}

export function captureLog(): CapturedLog {
  let written = '';
  const waiters = new Set<() => void>();
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      written += chunk.toString();
      for (const wake of waiters) wake();
      done();
    },
  });
  const lines = (): Record<string, unknown>[] => written.split('\n').filter((text) => text !== '').map((text) => JSON.parse(text) as Record<string, unknown>);
  return {
    logger: createLogger(configWith({ LOG_LEVEL: 'info' }), 'perpdesk', destination),
    text: () => written,
    lines,
    next: (match, timeoutMs = 5_000) =>
      new Promise((resolve, reject) => {
        const check = (): boolean => {
          const found = lines().find(match);
          if (!found) return false;
          clearTimeout(timer);
          waiters.delete(wake);
          resolve(found);
          return true;
        };
        const wake = (): void => void check();
        const timer = setTimeout(() => {
          waiters.delete(wake);
          reject(new Error(`no matching log line within ${timeoutMs} ms`));
        }, timeoutMs);
        if (!check()) waiters.add(wake);
      }),
  };
}
