import { readFileSync } from 'node:fs';
import { Router } from 'express';

const here = new URL('.', import.meta.url);
const page = readFileSync(new URL('docs.html', here), 'utf8');
const script = readFileSync(new URL('docs.js', here), 'utf8');

export const DOCS_PATH = '/docs';
export const DOCS_SCRIPT_PATH = `${DOCS_PATH}/docs.js`;

/** /docs renders /api/openapi.json with a small same-origin script (helmet's CSP allows it). */
export function docsRouter(): Router {
  const router = Router();
  router.get(DOCS_PATH, (_req, res) => {
    res.type('html').send(page);
  });
  router.get(DOCS_SCRIPT_PATH, (_req, res) => {
    res.type('application/javascript').send(script);
  });
  return router;
}
