import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The shared wire-format samples (README inside). They live beside the repository
 * (../shared/fixtures); PERPDESK_FIXTURES_DIR points elsewhere.
 */
export const FIXTURES_DIR = process.env.PERPDESK_FIXTURES_DIR ?? fileURLToPath(new URL('../../../shared/fixtures/', import.meta.url));

/** One fixture file parsed, e.g. fixture('bybit-v5/ws-kline.json'). */
export function fixture(path: string): unknown {
  return JSON.parse(readFileSync(`${FIXTURES_DIR.replace(/\/?$/, '/')}${path}`, 'utf8')) as unknown;
}
