import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { RouteResult } from './route.ts';

export const DOCS_PATH = '/docs';
export const OPENAPI_PATH = '/openapi.json';
const ASSETS = `${DOCS_PATH}/assets`;

// swagger-ui-dist's own files, served by us: the docs work offline and without a CDN
const distDir = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
const DIST_FILES: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'index.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
  'favicon-16x16.png': 'image/png',
};

// a separate file rather than an inline script, so a strict CSP can forbid inline scripts
const initJs = (base: string) => `window.onload = function () {
  window.ui = SwaggerUIBundle({
    url: ${JSON.stringify(base + OPENAPI_PATH)},
    dom_id: '#swagger-ui',
    deepLinking: true,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
    plugins: [SwaggerUIBundle.plugins.DownloadUrl],
    layout: 'StandaloneLayout'
  });
};
`;

function page(title: string, base: string): string {
  const assets = base + ASSETS;
  const esc = title.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
  return `<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="UTF-8">
    <title>${esc} - API docs</title>
    <link rel="stylesheet" type="text/css" href="${assets}/swagger-ui.css" />
    <link rel="stylesheet" type="text/css" href="${assets}/index.css" />
    <link rel="icon" type="image/png" href="${assets}/favicon-32x32.png" sizes="32x32" />
    <link rel="icon" type="image/png" href="${assets}/favicon-16x16.png" sizes="16x16" />
  </head>
  <body>
    <div id="swagger-ui"></div>
    <script src="${assets}/swagger-ui-bundle.js" charset="UTF-8"></script>
    <script src="${assets}/swagger-ui-standalone-preset.js" charset="UTF-8"></script>
    <script src="${assets}/init.js" charset="UTF-8"></script>
  </body>
</html>
`;
}

/** The Swagger UI page of a front door whose documents sit under `base` ('' or '/sapi'). */
export function docsPage(title: string, base = ''): RouteResult {
  return { status: 200, body: page(title, base), headers: { 'content-type': 'text/html; charset=utf-8' } };
}

const cache = new Map<string, Buffer>();

/** One asset by file name; undefined for anything not on the list (no path traversal). */
export async function docsAsset(file: string, base = ''): Promise<RouteResult | undefined> {
  const headers = { 'cache-control': 'public, max-age=86400' };
  if (file === 'init.js') return { status: 200, body: initJs(base), headers: { ...headers, 'content-type': 'text/javascript; charset=utf-8' } };
  const type = DIST_FILES[file];
  if (type === undefined) return undefined;
  let bytes = cache.get(file);
  if (!bytes) {
    bytes = await readFile(join(distDir, file));
    cache.set(file, bytes);
  }
  return { status: 200, body: bytes, headers: { ...headers, 'content-type': type } };
}

export const DOCS_ASSETS_PATH = ASSETS;

export const REDOC_PATH = '/redoc';
export const REDOC_ASSETS_PATH = `${REDOC_PATH}/assets`;
// ReDoc's own standalone bundle, served by us like Swagger UI's: offline, no CDN
const redocBundle = join(dirname(createRequire(import.meta.url).resolve('redoc/package.json')), 'bundles', 'redoc.standalone.js');

/** The ReDoc page of a front door: the same OpenAPI document, read as a reference (no inline script). */
export function redocPage(title: string, base = ''): RouteResult {
  const esc = title.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
  const html = `<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="UTF-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>${esc} - API reference</title>
  </head>
  <body>
    <redoc spec-url="${base}${OPENAPI_PATH}"></redoc>
    <script src="${base}${REDOC_ASSETS_PATH}/redoc.standalone.js" charset="UTF-8"></script>
  </body>
</html>
`;
  return { status: 200, body: html, headers: { 'content-type': 'text/html; charset=utf-8' } };
}

/** ReDoc's bundle; undefined for any other name. */
export async function redocAsset(file: string): Promise<RouteResult | undefined> {
  if (file !== 'redoc.standalone.js') return undefined;
  let bytes = cache.get(redocBundle);
  if (!bytes) {
    bytes = await readFile(redocBundle);
    cache.set(redocBundle, bytes);
  }
  return { status: 200, body: bytes, headers: { 'cache-control': 'public, max-age=86400', 'content-type': 'text/javascript; charset=utf-8' } };
}
