/** `npm run generate`: writes every generated file (CHANGELOG.md, the typed client's types) from its source. */
import { writeFile } from 'node:fs/promises';
import { GENERATED_FILES, REPO_ROOT } from './generated-files.js';

for (const file of GENERATED_FILES) {
  await writeFile(new URL(file.path, REPO_ROOT), await file.render());
  process.stdout.write(`wrote ${file.path}\n`);
}
