import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Router } from 'express';

const here = new URL('.', import.meta.url);
const read = (name: string): string => readFileSync(new URL(name, here), 'utf8');

export const DOCS_PATH = '/docs';
const ASSETS_PATH = `${DOCS_PATH}/assets`;

/** The page, its init script and its sidebar's style, from this folder. */
const OWN_FILES: Readonly<Record<string, { type: string; body: string }>> = {
  [DOCS_PATH]: { type: 'html', body: read('docs.html') },
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
 * offline and under helmet's default Content-Security-Policy (scripts and styles from 'self', no inline script).
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
