import { spawnSync } from 'node:child_process';
import type { Logger } from './logger.js';

/** True when `binary` is a command on the PATH. */
export function onPath(binary: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${binary}`], { stdio: 'ignore' }).status === 0;
}

/**
 * Installs a Debian package with apt-get when we are root and apt-get exists (what `npm run demo` and `npm test` do on a
 * bare machine for redis-server, and the browser tests for Chromium). Answers whether `installed` holds afterwards.
 */
export function aptInstall(pkg: string, installed: () => boolean, logger?: Logger): boolean {
  if (installed()) return true;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot || !onPath('apt-get')) return false;
  logger?.warn(`${pkg} is not installed: installing it with apt-get (Debian package ${pkg})`);
  const update = spawnSync('apt-get', ['update', '-qq'], { stdio: 'ignore' });
  const install = spawnSync('apt-get', ['install', '-y', '-qq', pkg], {
    stdio: 'ignore',
    // eslint-disable-next-line no-restricted-properties -- handing the environment on to apt-get, not reading config
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  return update.status === 0 && install.status === 0 && installed();
}
