/** The outbox relay lag the metrics report, from the last complete scan (pure). */
import type { OutboxScanReport } from './outbox-store.js';

/** Scan periods without a complete scan after which the report is no longer trusted. */
export const SCAN_PERIODS_TRUSTED = 3;

/**
 * Seconds the oldest unrelayed outbox entry has waited. A recent scan answers with the age its oldest entry had when it
 * was seen (0 for empty outboxes). With no complete scan for SCAN_PERIODS_TRUSTED periods (no relay running, or every
 * scan failing), nobody is looking: the oldest entry seen counts as still waiting, and with none seen the time since
 * the last scan is the least that may have gone unrelayed, so an alert on this gauge fires when the relays stop.
 * Undefined before the first scan ever.
 */
export function outboxLagSeconds(report: OutboxScanReport | null, nowMs: number, scanMs: number): number | undefined {
  if (report === null) return undefined;
  const trusted = nowMs - report.at <= SCAN_PERIODS_TRUSTED * scanMs;
  const until = trusted ? report.at : nowMs;
  return Math.max(0, until - (report.oldestMs ?? report.at)) / 1000;
}
