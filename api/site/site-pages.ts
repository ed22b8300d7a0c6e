/**
 * The site's pages: plain HTML and same-origin ES modules from ./public (no build step, no inline script, so helmet's
 * default Content-Security-Policy holds), and lightweight-charts' standalone module from node_modules.
 */
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import express, { Router } from 'express';

const PUBLIC_DIR = fileURLToPath(new URL('./public/', import.meta.url));
/** Each page's path and its file. */
const SITE_PAGES = {
  '/signin': 'signin.html',
  '/keys': 'keys.html',
  '/trade': 'trade.html',
  '/equity': 'equity.html',
  '/arena': 'arena.html',
};
const SITE_ASSETS_PATH = '/site';
const CHARTS_PATH = `${SITE_ASSETS_PATH}/vendor/lightweight-charts.mjs`;
// the package's exports map hides dist/: found beside its package.json
const chartsModule = fileURLToPath(
  new URL(
    'dist/lightweight-charts.standalone.production.mjs',
    pathToFileURL(createRequire(import.meta.url).resolve('lightweight-charts/package.json')),
  ),
);

export function sitePages(): Router {
  const router = Router();
  const noCache = { headers: { 'Cache-Control': 'no-cache' } };
  for (const [path, file] of Object.entries(SITE_PAGES)) {
    router.get(path, (_req, res) => res.sendFile(file, { root: PUBLIC_DIR, ...noCache }));
  }
  router.get('/', (_req, res) => res.redirect(302, '/trade'));
  router.get(CHARTS_PATH, (_req, res) => res.sendFile(chartsModule, { headers: { 'Cache-Control': 'public, max-age=86400' } }));
  router.use(SITE_ASSETS_PATH, express.static(PUBLIC_DIR, { index: false, cacheControl: true, maxAge: 0 }));
  return router;
}
