/**
 * Mocha's spec output, then the time each test file took, slowest first: what to look at when the suite slows down.
 * A file's time is the sum of its tests' and hooks' durations (in parallel mode the workers report events only when a
 * file ends, so the reporter's own clock cannot time a file); a hook of no file (the root hooks in test/helpers/setup.ts,
 * starting the suite's Redis) counts towards the file it runs for. PERPDESK_TEST_TIMINGS=path also writes every file's
 * figures there as JSON; PERPDESK_TEST_TIMINGS_TOP=n prints n files (15 unless told, 0 for none). Every skipped test is
 * listed after them, one `skipped: FILE: TITLE` line each, so a skip is never silent (.ci/run repeats them).
 */
import { writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import Mocha from 'mocha';

const { EVENT_HOOK_END, EVENT_TEST_END, EVENT_TEST_PENDING, EVENT_RUN_END, EVENT_RUN_BEGIN } = Mocha.Runner.constants;

interface FileTiming {
  file: string;
  ms: number;
  tests: number;
}

export default class TimingReporter extends Mocha.reporters.Spec {
  constructor(runner: Mocha.Runner, options?: Mocha.MochaOptions) {
    super(runner, options);
    const files = new Map<string, FileTiming>();
    const skipped: string[] = [];
    let lastFile: string | undefined;
    let unattributedMs = 0;
    let startedAt = Date.now();
    const add = (file: string | undefined, ms: number, tests: number): void => {
      if (!file) {
        // a root hook: before a file's first test (beforeAll) or after its last (afterAll)
        if (lastFile) files.get(lastFile)!.ms += ms;
        else unattributedMs += ms;
        return;
      }
      const name = relative(process.cwd(), file);
      const timing = files.get(name) ?? { file: name, ms: unattributedMs, tests: 0 };
      unattributedMs = 0;
      timing.ms += ms;
      timing.tests += tests;
      files.set(name, timing);
      lastFile = name;
    };
    runner.once(EVENT_RUN_BEGIN, () => (startedAt = Date.now()));
    runner.on(EVENT_HOOK_END, (hook: Mocha.Hook) => {
      add(hook.file, hook.duration ?? 0, 0);
      // the next file's root beforeAll comes before its first test: it is not the previous file's
      if (!hook.file && hook.title.includes('after all')) lastFile = undefined;
    });
    runner.on(EVENT_TEST_END, (test: Mocha.Test) => add(test.file, test.duration ?? 0, 1));
    runner.on(EVENT_TEST_PENDING, (test: Mocha.Test) => {
      add(test.file, 0, 0);
      skipped.push(`${test.file ? relative(process.cwd(), test.file) : '?'}: ${test.fullTitle()}`);
    });
    runner.once(EVENT_RUN_END, () => {
      const sorted = [...files.values()].sort((a, b) => b.ms - a.ms);
      const totalMs = sorted.reduce((sum, timing) => sum + timing.ms, 0);
      const top = Number(process.env.PERPDESK_TEST_TIMINGS_TOP ?? 15);
      const wallMs = Date.now() - startedAt;
      if (top > 0) {
        console.log(`\n  slowest files (${files.size} files, ${seconds(totalMs)} s of tests and hooks, ${seconds(wallMs)} s wall):`);
        for (const timing of sorted.slice(0, top))
          console.log(`  ${seconds(timing.ms).padStart(7)} s  ${timing.tests} tests  ${timing.file}`);
      }
      if (skipped.length > 0) console.log(`\n${skipped.map((line) => `  skipped: ${line}`).join('\n')}`);
      const path = process.env.PERPDESK_TEST_TIMINGS;
      if (path) writeFileSync(path, JSON.stringify({ wallMs, files: sorted }, null, 2));
    });
  }
}

const seconds = (ms: number): string => (ms / 1000).toFixed(1);
