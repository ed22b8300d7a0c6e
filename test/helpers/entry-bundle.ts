/**
 * The entry points the tests start as child processes (the service, the demo's, the operator CLI), bundled once per run
 * with esbuild: a child then loads one prebuilt file instead of compiling every source with tsx as it starts (about 2 s
 * of CPU each, and the suite starts dozens). Built by test/helpers/setup.ts before the files run; the packages stay
 * outside the bundle (read from node_modules as tsx would), and each module keeps its own import.meta.url, which the
 * sources use to find the files beside them (Lua scripts, pages). Without a bundle (none was built) a child runs the
 * entry through tsx, as `npm start` does.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, type Plugin } from 'esbuild';

const PROJECT_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const ENTRIES = ['workers/main.ts', 'ops/demo/main.ts', 'ops/cli/main.ts'];
const BUNDLE_ENV = 'PERPDESK_TEST_ENTRY_BUNDLE';

/** Replaces import.meta.url in each source with that source's own URL (a bundle has one URL for them all). */
const keepModuleUrls: Plugin = {
  name: 'keep-module-urls',
  setup(builder) {
    builder.onLoad({ filter: /\.ts$/ }, (args) => {
      if (args.path.includes('/node_modules/')) return undefined;
      const source = readFileSync(args.path, 'utf8');
      return { contents: source.replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href)), loader: 'ts' };
    });
  },
};

/**
 * Bundles the entry points into a fresh folder under node_modules/.cache (so their packages resolve) and hands the
 * folder to this process and the test workers it starts (an environment variable); answers a remover.
 */
export async function buildEntryBundle(): Promise<() => void> {
  const root = join(PROJECT_ROOT, 'node_modules', '.cache', 'perpdesk-test');
  mkdirSync(root, { recursive: true });
  const dir = mkdtempSync(join(root, 'entries-'));
  await build({
    entryPoints: ENTRIES.map((entry) => join(PROJECT_ROOT, entry)),
    outbase: PROJECT_ROOT,
    outdir: dir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    plugins: [keepModuleUrls],
    logLevel: 'error',
  });
  process.env[BUNDLE_ENV] = dir;
  return () => rmSync(dir, { recursive: true, force: true });
}

/** The node arguments that run `entry` (a path from the project root): its bundle when one was built, else through tsx. */
export function entryArgs(entry: string): string[] {
  const dir = process.env[BUNDLE_ENV];
  if (!dir || !ENTRIES.includes(entry)) return ['--import', 'tsx', entry];
  return [join(dir, entry.replace(/\.ts$/, '.mjs'))];
}
