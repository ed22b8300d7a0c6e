// Mocha adds a config's `spec` to the files named on the command line, so the whole suite is the
// spec only when none is named: `npx mocha test/unit/fees.test.ts` (or `npm test -- FILE`) runs that file alone.
const { existsSync } = require('node:fs');
const { availableParallelism } = require('node:os');

const named = process.argv
  .slice(2)
  .filter((arg) => !arg.startsWith('-') && (arg.includes('*') || (/\.test\.ts$/.test(arg) && existsSync(arg)) || /^test(\/|$)/.test(arg)));
const namesFiles = named.length > 0;
// The files run in two worker processes (one on a one-core machine), each with a Redis of its own
// (test/helpers/setup.ts); PERPDESK_TEST_JOBS=N sets N, 1 runs them one after another. Two, not more: the tests start
// the service as child processes, and four workers on two cores pushed them past their timeouts (test/README.md).
const jobs = Number(process.env.PERPDESK_TEST_JOBS) || Math.min(2, availableParallelism());
const parallel = jobs > 1 && (!namesFiles || named.length > 1 || named.some((arg) => arg.includes('*') || !arg.endsWith('.ts')));

module.exports = {
  spec: namesFiles ? [] : ['test/**/*.test.ts'],
  // the chaos test (minutes of child processes on three masters) runs in `npm run test:cluster3` only
  ...(namesFiles ? {} : { ignore: ['test/chaos/**'] }),
  'node-option': ['import=tsx', 'no-experimental-require-module'],
  require: ['test/helpers/setup.ts'],
  reporter: 'test/helpers/timing-reporter.ts',
  parallel,
  jobs,
  timeout: 20000,
  exit: true,
};
