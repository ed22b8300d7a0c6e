/**
 * The committed generated files (CHANGELOG.md, the typed client's types, the Python client's models and methods) are
 * what their sources generate now: a route, a schema or a changelog entry changed without `npm run generate` fails
 * here, naming the file.
 */
import { expect } from 'chai';
import { readFile } from 'node:fs/promises';
import { GENERATED_FILES, REPO_ROOT } from '../../ops/generate/generated-files.js';

describe('generated files are up to date (npm run generate)', function () {
  this.timeout(60_000);
  for (const file of GENERATED_FILES) {
    it(`${file.path} is what its source generates`, async () => {
      const committed = await readFile(new URL(file.path, REPO_ROOT), 'utf8');
      const generated = await file.render();
      if (committed === generated) return;
      // a short message: the first line that differs, not two long files
      const want = generated.split('\n');
      const line = committed.split('\n').findIndex((text, i) => text !== want[i]);
      expect.fail(`${file.path} differs from what its source generates (first at line ${line + 1}): run npm run generate`);
    });
  }
});
