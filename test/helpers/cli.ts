import { spawn } from 'node:child_process';
import { entryArgs } from './entry-bundle.js';
import { PROJECT_ROOT } from './process.js';

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the operator CLI (ops/cli/main.ts) as its own process, as `npm run cli -- ...` does. */
export function runCliProcess(args: string[], env: Record<string, string>): Promise<CliRun> {
  const child = spawn(process.execPath, [...entryArgs('ops/cli/main.ts'), ...args], {
    cwd: PROJECT_ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}
