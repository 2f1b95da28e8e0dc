// The service's own HTML pages (`/` and the guides): one small layout, no script at all, and a
// Content-Security-Policy that lets nothing run or load but this stylesheet and our own images.
import { createHash } from 'node:crypto';
import type { RouteResult } from './route.ts';

const STYLE = `body{font:16px/1.55 system-ui,-apple-system,"Segoe UI",sans-serif;max-width:52rem;margin:2rem auto;padding:0 1rem;color:#1d1f23}
a{color:#0b57d0}code,pre{font:14px/1.45 ui-monospace,Menlo,Consolas,monospace;background:#f3f4f6;border-radius:4px}
code{padding:.1em .3em}pre{padding:.8em;overflow-x:auto}pre code{padding:0;background:none}
table{border-collapse:collapse;margin:1em 0}th,td{border:1px solid #d5d8dd;padding:.3em .6em;text-align:left;vertical-align:top}
img{max-width:100%}nav{font-size:14px;margin-bottom:1.5rem}h1{font-size:1.8rem}ul.links li{margin:.25em 0}`;

// the stylesheet is inline, allowed by its hash rather than by 'unsafe-inline'
const STYLE_HASH = createHash('sha256').update(STYLE).digest('base64');
export const PAGE_CSP = `default-src 'none'; style-src 'sha256-${STYLE_HASH}'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A whole page around `body` (already HTML); `title` is text. */
export function htmlPage(title: string, body: string): RouteResult {
  const html = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
${body}
</body>
</html>
`;
  return {
    status: 200,
    body: html,
    headers: { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': PAGE_CSP, 'x-content-type-options': 'nosniff', 'cache-control': 'public, max-age=300' },
  };
}
