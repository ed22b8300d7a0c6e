/**
 * The browser tests' Chromium: Debian's (/usr/bin/chromium) driven by playwright-core. One per test process, launched by
 * the first browser test and shared by the others (each opens a context of its own and closes it); playwright closes it
 * when the process exits. test/helpers/setup.ts makes sure it is installed before a run that has browser tests.
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { aptInstall } from '../../shared/core/apt-install.js';

export const CHROMIUM = '/usr/bin/chromium';

/** What a run needs to install for its browser tests: one line. */
export const CHROMIUM_MISSING = `${CHROMIUM} not found: the browser tests need Chromium (Debian/Ubuntu: sudo apt-get install chromium)`;

/** Makes sure Chromium is there: installs it with apt-get when we are root (as for redis-server), else says what to install. */
export function ensureChromium(): void {
  if (!aptInstall('chromium', () => existsSync(CHROMIUM))) throw new Error(CHROMIUM_MISSING);
}

let shared: Promise<Browser> | undefined;

export function sharedBrowser(): Promise<Browser> {
  ensureChromium();
  shared ??= chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  return shared;
}
