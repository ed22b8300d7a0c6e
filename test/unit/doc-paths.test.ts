import { expect } from 'chai';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

/** The repository's top-level folders: a backticked `folder/...` in a document names a path of the repository. */
const ROOT = join(import.meta.dirname, '../..');
const TOP_FOLDERS = ['api', 'shared', 'workers', 'ops', 'test', 'bench', 'clients', 'docs', '.ci'];

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' || entry.name.startsWith('.') ? [] : markdownFiles(path);
    return entry.name.endsWith('.md') ? [path] : [];
  });
}

/**
 * The documents a newcomer reads: the READMEs and docs/. Left out: the recorded fixtures' provenance notes, and the
 * records of past runs and releases (they name files as they were then).
 */
const documents = [
  ...readdirSync(ROOT)
    .filter((name) => name.endsWith('.md'))
    .map((name) => join(ROOT, name)),
  ...['docs', 'bench', 'test', 'clients', 'ops'].flatMap((folder) => markdownFiles(join(ROOT, folder))),
].filter((path) => !/^(test\/fixtures\/|bench\/HISTORY\.md$|CHANGELOG\.md$)/.test(relative(ROOT, path)));

/** Repository paths a document names: backticked `api/...`-like paths and relative markdown links. */
function namedPaths(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const backticked = [...text.matchAll(/`([^`\s]+)`/g)]
    .map((match) => match[1].replace(/:\d+(-\d+)?$/, ''))
    .filter((path) => TOP_FOLDERS.includes(path.split('/')[0]) && path.includes('/') && !/[*<>{}$…]|\.\.\./.test(path))
    // what a run writes (gitignored) is not in a clone
    .filter((path) => !path.startsWith('bench/results/'))
    .map((path) => join(ROOT, path));
  const linked = [...text.matchAll(/\]\(([^)\s#]+)(?:#[^)]*)?\)/g)]
    .map((match) => match[1])
    .filter((target) => !/^[a-z]+:/i.test(target) && !target.startsWith('/'))
    .map((target) => join(dirname(file), target));
  return [...new Set([...backticked, ...linked])];
}

describe('documents name paths that exist', () => {
  it('finds the documents', () => {
    expect(documents.map((path) => relative(ROOT, path))).to.include.members(['README.md', 'docs/ARCHITECTURE.md', 'bench/README.md']);
  });

  for (const document of documents) {
    it(relative(ROOT, document), () => {
      const missing = namedPaths(document)
        .filter((path) => !existsSync(path))
        .map((path) => relative(ROOT, path));
      expect(missing).to.deep.equal([]);
    });
  }
});
