/**
 * The guide's code samples (docs/guide/*.md, and docs/python.md, the Python walk-through its first page links) and a
 * way to run one: test/e2e/guide-samples.test.ts runs each against a live stack.
 */
import { spawn } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const GUIDE_DIR = fileURLToPath(new URL('../../docs/guide/', import.meta.url));
const PYTHON_GUIDE = fileURLToPath(new URL('../../docs/python.md', import.meta.url));

/** The guide's pages in reading order, then the Python walk-through. */
async function guideFiles(): Promise<string[]> {
  const pages = (await readdir(GUIDE_DIR)).filter((n) => n.endsWith('.md')).sort();
  return [...pages.map((name) => join(GUIDE_DIR, name)), PYTHON_GUIDE];
}

export type Lang = 'sh' | 'python' | 'ts';
const LANGS: Readonly<Record<string, Lang>> = { sh: 'sh', bash: 'sh', python: 'python', ts: 'ts', typescript: 'ts' };
/** Info strings of blocks that are not programs (shown output, configuration). */
const NOT_CODE = new Set(['json', 'text', 'yaml', 'http']);

export interface Sample {
  where: string;
  lang: Lang;
  code: string;
  run: boolean;
}

/** The fenced blocks of every guide page, in reading order; an untagged block or an unknown tag fails the test. */
export async function guideSamples(): Promise<Sample[]> {
  const samples: Sample[] = [];
  for (const file of await guideFiles()) {
    const name = basename(file);
    const lines = (await readFile(file, 'utf8')).split('\n');
    for (let at = 0; at < lines.length; at++) {
      const open = /^```(.*)$/.exec(lines[at]!);
      if (!open) continue;
      const [tag = '', ...markers] = open[1]!.trim().split(/\s+/);
      const where = `${name}:${at + 1}`;
      const close = lines.indexOf('```', at + 1);
      if (close < 0) throw new Error(`${where}: an unclosed block`);
      const code = lines.slice(at + 1, close).join('\n');
      at = close;
      if (NOT_CODE.has(tag)) continue;
      const lang = LANGS[tag];
      if (lang === undefined) {
        throw new Error(
          `${where}: a block needs a known tag (sh, bash, python, ts, typescript, or ${[...NOT_CODE].join(', ')}), not "${tag}"`,
        );
      }
      samples.push({ where, lang, code, run: !markers.includes('no-run') });
    }
  }
  return samples;
}

export interface Run {
  status: number | null;
  output: string;
  stdout: string;
}

/** Runs a program with `env` beside this process's own, `input` on its stdin. */
export function runProgram(
  command: string,
  args: string[],
  options: { env: Record<string, string>; cwd: string; input?: string },
): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: { ...process.env, ...options.env } });
    let stdout = '';
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      output += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, output, stdout }));
    child.stdin.end(options.input ?? '');
  });
}
