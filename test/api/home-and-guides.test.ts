// GET / and the guides (README.md, docs/*.md) as pages, through HTTP on a started service.
import { expect } from 'chai';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { guideSite } from '../../src/platform/http/guides.ts';
import { startTestService, type TestService } from '../support/service.ts';

const DOCS = fileURLToPath(new URL('../../docs', import.meta.url));

describe('GET / and the guides', function () {
  this.timeout(120_000);
  let service: TestService;
  const get = (path: string, headers: Record<string, string> = {}) => fetch(`${service.root}${path}`, { headers, redirect: 'manual' });
  const links = (html: string) => [...html.matchAll(/href="([^"]+)"/g)].map((m) => (m[1] ?? '').replace(/&#38;/g, '&'));

  before(async () => {
    service = await startTestService({ rateLimit: true });
  });
  after(async () => service?.close());

  it('/ is a short public page linking the API documents, health and every guide', async () => {
    const page = await get('/');
    expect(page.status).to.equal(200);
    expect(page.headers.get('content-type')).to.match(/^text\/html; charset=utf-8/);
    const html = await page.text();
    expect(html).not.to.include('<script');
    const hrefs = links(html);
    for (const href of ['/docs', '/redoc', '/openapi.json', '/sapi/redoc', '/sapi/openapi.json', '/api/v1/health', '/guides/readme']) expect(hrefs).to.include(href);
    const guides = (await readdir(DOCS)).filter((f) => f.endsWith('.md')).map((f) => `/guides/${f.slice(0, -3)}`);
    for (const guide of guides) expect(hrefs).to.include(guide);
    for (const href of hrefs) expect((await get(href)).status, href).to.equal(200);
  });

  it('serves each guide as HTML rendered from its Markdown, under a CSP that runs no script', async () => {
    const page = await get('/guides/sapi');
    expect(page.status).to.equal(200);
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).to.match(/default-src 'none'/).and.not.match(/script-src|unsafe-inline/);
    expect(page.headers.get('x-content-type-options')).to.equal('nosniff');
    const html = await page.text();
    expect(html).to.match(/<h1 id="[^"]+">/).and.include('<table>').and.include('<code>');
    expect(html).not.to.include('<script');
    // links between guides point at their pages, headings have the anchors the links use
    const architecture = await (await get('/guides/readme')).text();
    expect(links(architecture)).to.include('/guides/architecture#where-a-capability-lives');
    expect(await (await get('/guides/architecture')).text()).to.include('id="where-a-capability-lives"');
  });

  it('follows no link it cannot serve', async () => {
    const html = await (await get('/guides/readme')).text();
    for (const href of links(html)) expect(href, href).to.match(/^(https?:|mailto:|#|\/guides\/|\/$|\/docs$)/);
  });

  it('shows raw HTML in a guide as text and drops links to other schemes', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'guides-'));
    try {
      await mkdir(path.join(root, 'docs'));
      await writeFile(path.join(root, 'README.md'), '# Readme\n\nSee [the guide](docs/hostile.md#part-two).\n');
      await writeFile(path.join(root, 'docs', 'hostile.md'), '# Hostile\n\n<script>alert(1)</script>\n\nText <img src=x onerror=alert(1)> and [a link](javascript:alert(1)) and ![pic](http://evil.example/x.png "t").\n\n## Part two\n');
      const site = guideSite(root);
      const page = async (p: string) => String((await site.documents.find((d) => d.path === p)!.get()).body);
      const hostile = await page('/guides/hostile');
      expect(hostile).not.to.include('<script').and.not.include('<img src=x').and.not.include('javascript:');
      expect(hostile).to.include('&#60;script&#62;alert(1)&#60;/script&#62;').and.include('id="part-two"');
      expect(await page('/guides/readme')).to.include('<a href="/guides/hostile#part-two">the guide</a>');
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });

  it('serves the sample files the guides show; anything else under /guides is 404', async () => {
    const picture = await get('/guides/sample-invoice.png');
    expect(picture.status).to.equal(200);
    expect(picture.headers.get('content-type')).to.equal('image/png');
    expect((await get('/guides/nothing-here')).status).to.equal(404);
    expect((await get('/guides/..%2Fpackage.json')).status).to.equal(404);
  });

  it('is exempt from rate limits, like /docs', async () => {
    // the per-IP bucket of a caller without credentials is far smaller than this
    const statuses = await Promise.all(Array.from({ length: 150 }, (_, i) => get(i % 2 ? '/' : '/guides/tdd').then((r) => r.status)));
    expect(new Set(statuses)).to.deep.equal(new Set([200]));
    // while the same caller on an API route runs out
    const api = await Promise.all(Array.from({ length: 150 }, () => get('/api/v1/invoices').then((r) => r.status)));
    expect(api).to.include(429);
  });
});
