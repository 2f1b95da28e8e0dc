// The guides in docs/ (and the README) as HTML pages under /guides, rendered by marked. The files
// are ours, but raw HTML in them is shown as text, links go only where a page or file exists, and
// no URL scheme but http(s) and mailto is followed.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { Marked, TextRenderer, type Tokens } from 'marked';
import { escapeHtml, htmlPage } from './page.ts';
import type { RouteResult } from './route.ts';

export const GUIDES_PATH = '/guides';

/** One page: its path under /guides, its title (the first heading) and where its Markdown is. */
export interface Guide {
  name: string;
  title: string;
  file: string;
}

/** Files of docs/ served as they are, beside the guides (the sample PDF, its picture, the CSV sample). */
const ASSET_TYPES: Record<string, string> = { '.png': 'image/png', '.pdf': 'application/pdf', '.csv': 'text/csv; charset=utf-8' };

export interface GuideSite {
  guides: Guide[];
  /** the public GET documents: every guide and every asset, each at its own path */
  documents: { path: string; get(): Promise<RouteResult> }[];
}

function titleOf(markdown: string, fallback: string): string {
  const heading = /^#\s+(.+)$/m.exec(markdown);
  return heading?.[1]?.replace(/`/g, '').trim() ?? fallback;
}

// GitHub's heading anchors, so the guides' links to #sections work here too
function slug(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').trim().replace(/\s/g, '-');
}

/**
 * `repoRoot`'s README.md (as /guides/readme) and docs/*.md (as /guides/<name>), read when the
 * service starts (the guides ship with it) and rendered on first request.
 */
export function guideSite(repoRoot: string): GuideSite {
  const docsDir = path.join(repoRoot, 'docs');
  const files = readdirSync(docsDir).sort();
  const sources = [
    { name: 'readme', repoPath: 'README.md' },
    ...files.filter((f) => f.endsWith('.md')).map((f) => ({ name: f.slice(0, -3), repoPath: `docs/${f}` })),
  ];
  const assets = files.filter((f) => path.extname(f) in ASSET_TYPES);
  const byRepoPath = new Map(sources.map((s) => [s.repoPath, `${GUIDES_PATH}/${s.name}`]));
  for (const asset of assets) byRepoPath.set(`docs/${asset}`, `${GUIDES_PATH}/${asset}`);

  // a link as written in a file at `from`: kept when it leaves the site, pointed at our page when we have one, else dropped
  const target = (href: string, from: string): string | undefined => {
    if (/^(https?:|mailto:)/i.test(href) || href.startsWith('#')) return href;
    if (/^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith('/')) return undefined;
    const [file = '', hash] = href.split('#', 2);
    const page = byRepoPath.get(path.posix.normalize(path.posix.join(path.posix.dirname(from), file)));
    return page === undefined ? undefined : page + (hash === undefined ? '' : `#${hash}`);
  };

  const render = (markdown: string, from: string): string => {
    const seen = new Map<string, number>();
    const marked = new Marked({
      gfm: true,
      renderer: {
        html: ({ text }) => escapeHtml(text),
        heading({ tokens, depth }) {
          const base = slug(this.parser.parseInline(tokens, new TextRenderer()));
          const n = seen.get(base) ?? 0;
          seen.set(base, n + 1);
          return `<h${depth} id="${escapeHtml(n === 0 ? base : `${base}-${n}`)}">${this.parser.parseInline(tokens)}</h${depth}>\n`;
        },
        link({ href, title, tokens }: Tokens.Link) {
          const text = this.parser.parseInline(tokens);
          const to = target(href, from);
          if (to === undefined) return text;
          return `<a href="${escapeHtml(to)}"${title ? ` title="${escapeHtml(title)}"` : ''}>${text}</a>`;
        },
        image({ href, text }: Tokens.Image) {
          const to = target(href, from);
          return to === undefined ? escapeHtml(text) : `<img src="${escapeHtml(to)}" alt="${escapeHtml(text)}">`;
        },
      },
    });
    return marked.parse(markdown, { async: false });
  };

  const guides: Guide[] = sources.map((s) => {
    const file = path.join(repoRoot, s.repoPath);
    return { name: s.name, title: titleOf(readFileSync(file, 'utf8'), s.name), file };
  });
  const pages = new Map<string, RouteResult>();
  const documents = guides.map((guide, i) => ({
    path: `${GUIDES_PATH}/${guide.name}`,
    get: async () => {
      let page = pages.get(guide.name);
      if (!page) {
        const body = render(readFileSync(guide.file, 'utf8'), sources[i]?.repoPath ?? '');
        page = htmlPage(guide.title, `<nav><a href="/">Home</a> · <a href="/docs">API docs</a></nav>\n<main>\n${body}</main>`);
        pages.set(guide.name, page);
      }
      return page;
    },
  }));
  for (const asset of assets) {
    documents.push({
      path: `${GUIDES_PATH}/${asset}`,
      get: async () => ({
        status: 200,
        body: readFileSync(path.join(docsDir, asset)),
        headers: { 'content-type': ASSET_TYPES[path.extname(asset)] ?? 'application/octet-stream', 'x-content-type-options': 'nosniff', 'cache-control': 'public, max-age=300' },
      }),
    });
  }
  return { guides, documents };
}
