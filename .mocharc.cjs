// Mocha adds a config's `spec` to the files named on the command line, so the whole suite is the
// spec only when none is named: `npx mocha test/unit/fees.test.ts` (or `npm test -- FILE`) runs that file alone.
const { existsSync } = require('node:fs');

const namesFiles = process.argv
  .slice(2)
  .some((arg) => !arg.startsWith('-') && (arg.includes('*') || (/\.test\.ts$/.test(arg) && existsSync(arg)) || /^test(\/|$)/.test(arg)));

module.exports = {
  spec: namesFiles ? [] : ['test/**/*.test.ts'],
  // the chaos test (minutes of child processes on three masters) runs in `npm run test:cluster3` only
  ...(namesFiles ? {} : { ignore: ['test/chaos/**'] }),
  'node-option': ['import=tsx', 'no-experimental-require-module'],
  require: ['test/helpers/setup.ts'],
  timeout: 20000,
  exit: true,
};
