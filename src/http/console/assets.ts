import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { FastifyInstance } from 'fastify';
import { CONSOLE_CSS } from './console-css.js';

/**
 * The console's only assets, served by the service itself (no CDN, works offline): htmx from its npm
 * package, the stylesheet and the tab icon. Their URLs carry a content hash, so they are cached for a year and a new
 * version is a new URL.
 */
const require = createRequire(import.meta.url);
const HTMX = readFileSync(require.resolve('htmx.org/dist/htmx.min.js'));

/** The tab icon: a parcel on the console's blue (drawn, not text, so it looks the same without fonts). */
const FAVICON =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#1f6feb"/>' +
  '<path d="M8 12l8-4 8 4v9l-8 4-8-4zM8 12l8 4 8-4M16 16v9" fill="none" stroke="#fff" stroke-width="2" stroke-linejoin="round"/></svg>';

const hash = (body: string | Buffer) => createHash('sha256').update(body).digest('hex').slice(0, 12);

export const ASSETS = {
  htmx: `/console/assets/htmx-${hash(HTMX)}.js`,
  css: `/console/assets/console-${hash(CONSOLE_CSS)}.css`,
  favicon: `/console/assets/icon-${hash(FAVICON)}.svg`,
};

export function registerConsoleAssets(scope: FastifyInstance): void {
  const serve = (url: string, type: string, body: string | Buffer) =>
    scope.get(url.replace('/console', ''), { schema: { hide: true } }, async (_request, reply) =>
      reply.header('Cache-Control', 'public, max-age=31536000, immutable').type(type).send(body),
    );
  serve(ASSETS.htmx, 'text/javascript; charset=utf-8', HTMX);
  serve(ASSETS.css, 'text/css; charset=utf-8', CONSOLE_CSS);
  serve(ASSETS.favicon, 'image/svg+xml', FAVICON);
}
