/**
 * Prometheus's promtool, for the alert rules' tests: Debian's `prometheus` package has it. test/helpers/setup.ts makes
 * sure it is installed before a run that has those tests, as it does for Chromium.
 */
import { aptInstall, onPath } from '../../shared/core/apt-install.js';

export const PROMTOOL_MISSING = 'promtool not found: the alert rules tests need it (Debian/Ubuntu: sudo apt-get install prometheus)';

/** Makes sure promtool is there: installs it with apt-get when we are root, else says what to install. */
export function ensurePromtool(): void {
  if (!aptInstall('prometheus', () => onPath('promtool'))) throw new Error(PROMTOOL_MISSING);
}
