/** The real logger's output, captured: what createLogger writes to a destination of the test's. */
import { Writable } from 'node:stream';
import { configWith } from '../../shared/config.js';
import { createLogger, type Logger } from '../../shared/core/logger.js';
import { Arrivals } from './arrivals.js';

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
  const lines = (): Record<string, unknown>[] =>
    written
      .split('\n')
      .filter((text) => text !== '')
      .map((text) => JSON.parse(text) as Record<string, unknown>);
  const arrivals = new Arrivals(lines, () => `log lines: ${written}`);
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      written += chunk.toString();
      arrivals.arrived();
      done();
    },
  });
  return {
    logger: createLogger(configWith({ LOG_LEVEL: 'info' }), 'perpdesk', destination),
    text: () => written,
    lines,
    next: (match, timeoutMs = 5_000) => arrivals.next(match, timeoutMs),
  };
}
