/**
 * The Python client's tests: a venv made as a user makes one (`python -m venv`, then `pip install ./clients/python`,
 * its dependencies resolved by pip from whatever index pip is configured with), and a pytest run against a running
 * service. test/helpers/setup.ts prepares the venv once before a run that uses this.
 */
import { createHash } from 'node:crypto';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { aptInstall } from '../../shared/core/apt-install.js';

/** Debian's interpreter when there is one (what CI machines have), else the python3 on the PATH. */
const PYTHON = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';
const REPO = fileURLToPath(new URL('../../', import.meta.url));
export const PYTHON_CLIENT_DIR = `${REPO}clients/python`;
/** The venv the tests run in: under node_modules, so it is ignored and goes with a clean checkout. */
const VENV = `${REPO}node_modules/.cache/perpdesk-python`;
export const VENV_PYTHON = `${VENV}/bin/python`;
/** What the venv's dependencies were installed for: the interpreter and the package's pyproject.toml. */
const STAMP = `${VENV}/perpdesk-stamp`;

function run(command: string, args: string[]): { ok: boolean; output: string } {
  const result = spawnSync(command, args, { encoding: 'utf8' });
  return { ok: result.status === 0, output: `${result.stdout ?? ''}${result.stderr ?? ''}${result.error?.message ?? ''}` };
}

function must(command: string, args: string[]): void {
  const { ok, output } = run(command, args);
  if (!ok) throw new Error(`${command} ${args.join(' ')} failed:\n${output}`);
}

/** pip in the venv; a dependency it cannot get fails at once, on one line naming it. */
function pip(args: string[]): void {
  // --retries 0: an index that cannot be reached is passed over at once for the next one configured
  const { ok, output } = run(VENV_PYTHON, ['-m', 'pip', 'install', '--quiet', '--retries', '0', ...args]);
  if (ok) return;
  const missing = /No matching distribution found for (\S+)/.exec(output)?.[1];
  if (missing) {
    throw new Error(`the Python client tests need ${missing}, which pip cannot get from the index it is configured with (pip config list)`);
  }
  const reason =
    output
      .split('\n')
      .find((line) => /^\s*error:/i.test(line))
      ?.trim() ?? output;
  throw new Error(`pip install ${args.join(' ')} failed: ${reason}`);
}

function stamp(): string {
  const version = run(PYTHON, ['-c', 'import sys; print(sys.executable, sys.version)']).output;
  return createHash('sha256')
    .update(version)
    .update(readFileSync(`${PYTHON_CLIENT_DIR}/pyproject.toml`))
    .digest('hex');
}

/**
 * Makes the venv and installs the client with its dependencies as `pip install ./clients/python` does, and pytest;
 * kept across runs while the interpreter and pyproject.toml are the same. The client itself is installed again from
 * the working tree on every run (--no-deps), so it is the code under test.
 */
export function preparePythonClient(): void {
  const venvWorks = (): boolean => run(PYTHON, ['-c', 'import ensurepip, venv']).ok;
  if (!aptInstall('python3-venv', venvWorks)) {
    throw new Error(`the Python client tests need ${PYTHON} with its venv module (Debian: sudo apt-get install python3-venv)`);
  }
  const wanted = stamp();
  if (!existsSync(STAMP) || readFileSync(STAMP, 'utf8') !== wanted) {
    must(PYTHON, ['-m', 'venv', '--clear', VENV]);
    // setuptools: the build backend of the reinstall below, which runs without build isolation (no index needed);
    // 70.1 and later build wheels without the wheel package
    pip([`${PYTHON_CLIENT_DIR}[test]`, 'setuptools>=70.1']);
    writeFileSync(STAMP, wanted);
  }
  pip(['--no-deps', '--no-build-isolation', '--force-reinstall', PYTHON_CLIENT_DIR]);
  // the build leaves its scratch beside the sources
  must('rm', ['-rf', `${PYTHON_CLIENT_DIR}/build`, `${PYTHON_CLIENT_DIR}/perpdesk.egg-info`]);
}

export interface PytestRun {
  status: number | null;
  output: string;
}

/** Runs pytest on the client's tests with `env` beside the process's; answers its exit status and output. */
export function runPytest(env: Record<string, string>, args: string[] = []): Promise<PytestRun> {
  return new Promise((resolve, reject) => {
    // -P: the installed package is tested, not the sources beside the working directory
    const child = spawn(VENV_PYTHON, ['-P', '-m', 'pytest', '-q', '-p', 'no:cacheprovider', 'tests', '--durations=5', ...args], {
      cwd: PYTHON_CLIENT_DIR,
      env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1', ...env },
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, output }));
  });
}
