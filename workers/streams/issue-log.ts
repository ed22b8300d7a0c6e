/** Logs malformed frames without flooding: the first at once, then one summary per interval. */
import type { Logger } from '../../shared/core/logger.js';

export interface IssueLog {
  report(issues: readonly string[]): void;
}

export function createIssueLog(logger: Logger, stream: string, intervalMs = 10_000): IssueLog {
  let suppressed = 0;
  let lastLogged = 0;
  return {
    report(issues) {
      if (issues.length === 0) return;
      const now = Date.now();
      if (now - lastLogged < intervalMs) {
        suppressed += issues.length;
        return;
      }
      logger.warn({ stream, sample: issues[0], count: issues.length, suppressedBefore: suppressed }, 'malformed frame skipped');
      suppressed = 0;
      lastLogged = now;
    },
  };
}
