import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Router } from 'express';

const here = new URL('.', import.meta.url);
const read = (name: string): string => readFileSync(new URL(name, here), 'utf8');

export const DOCS_PATH = '/docs';
const ASSETS_PATH = `${DOCS_PATH}/assets`;

export const GUIDE_PATH = `${DOCS_PATH}/guide`;
/** The guide: the repository's docs/guide/*.md, the product's manual, read once at start. */
const GUIDE_DIR = new URL('../../docs/guide/', import.meta.url);

export interface GuidePage {
  /** The file's name, e.g. 01-getting-started.md; served at /docs/guide/<name>. */
  name: string;
  /** Its first heading. */
  title: string;
  body: string;
}

/** The guide's pages in reading order (their names are numbered). */
export function guidePages(): GuidePage[] {
  return readdirSync(GUIDE_DIR)
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => {
      const body = readFileSync(new URL(name, GUIDE_DIR), 'utf8');
      return { name, title: /^# (.+)$/m.exec(body)?.[1] ?? name, body };
    });
}

const escapeHtml = (text: string): string =>
  text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] ?? c);

const GUIDE = guidePages();
/** The sidebar's list of guide pages, in place of the page's placeholder. */
const guideLinks = GUIDE.map(({ name, title }) => `<li><a href="${GUIDE_PATH}/${name}">${escapeHtml(title)}</a></li>`).join('');

/** The page, its init script and its sidebar's style, from this folder; the guide's pages as plain text. */
const OWN_FILES: Readonly<Record<string, { type: string; body: string }>> = {
  [DOCS_PATH]: { type: 'html', body: read('docs.html').replace('<!-- guide -->', guideLinks) },
  ...Object.fromEntries(GUIDE.map(({ name, body }) => [`${GUIDE_PATH}/${name}`, { type: 'text/plain', body }])),
  [`${DOCS_PATH}/docs.js`]: { type: 'application/javascript', body: read('docs.js') },
  [`${DOCS_PATH}/docs.css`]: { type: 'css', body: read('docs.css') },
};
/** What the page loads of swagger-ui-dist, and nothing else of it (its index.html would load the petstore). */
const SWAGGER_FILES = ['swagger-ui-bundle.js', 'swagger-ui.css', 'favicon-32x32.png'];

/** Every fixed path the docs router answers (the HTTP metrics' route labels). */
export const DOCS_PATHS: readonly string[] = [...Object.keys(OWN_FILES), ...SWAGGER_FILES.map((name) => `${ASSETS_PATH}/${name}`)];

/** swagger-ui-dist's files change only with the installed version: a day in caches. */
const ASSET_MAX_AGE_MS = 86_400_000;

/**
 * /docs: Swagger UI over /api/openapi.json, every file served from this process (no CDN), so the page works
 * offline and under helmet's default Content-Security-Policy (scripts and styles from 'self', no inline script);
 * its sidebar links the guide's pages, served read-only under /docs/guide/.
 */
export function docsRouter(): Router {
  const router = Router();
  for (const [path, { type, body }] of Object.entries(OWN_FILES)) {
    router.get(path, (_req, res) => {
      res.type(type).send(body);
    });
  }
  // the package's folder, found without loading its index (which would load the browser bundle into this process)
  const swaggerRoot = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  for (const name of SWAGGER_FILES) {
    router.get(`${ASSETS_PATH}/${name}`, (_req, res) => {
      res.sendFile(join(swaggerRoot, name), { maxAge: ASSET_MAX_AGE_MS });
    });
  }
  return router;
}
