import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The wire-format samples in test/fixtures (provenance in its README). */
const FIXTURES_DIR = fileURLToPath(new URL('../fixtures/', import.meta.url));

/** One fixture file parsed, e.g. fixture('bybit-v5/ws-kline.json'). */
export function fixture(path: string): unknown {
  return JSON.parse(readFileSync(`${FIXTURES_DIR}${path}`, 'utf8')) as unknown;
}
