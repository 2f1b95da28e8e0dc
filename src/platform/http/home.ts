// GET /: where a visitor who types the host name lands: the API documents, health and the guides.
import type { Guide } from './guides.ts';
import { escapeHtml, htmlPage } from './page.ts';
import type { RouteResult } from './route.ts';

export const HOME_PATH = '/';

const API_LINKS: [href: string, text: string][] = [
  ['/docs', 'Native API: Swagger UI'],
  ['/redoc', 'Native API: reference (ReDoc)'],
  ['/openapi.json', 'Native API: OpenAPI document'],
  ['/sapi/docs', 'SAPI-SK connector: Swagger UI'],
  ['/sapi/redoc', 'SAPI-SK connector: reference (ReDoc)'],
  ['/sapi/openapi.json', 'SAPI-SK connector: OpenAPI document'],
  ['/api/v1/health', 'Health'],
];

export function homePage(title: string, guides: readonly Guide[]): RouteResult {
  const item = (href: string, text: string) => `<li><a href="${escapeHtml(href)}">${escapeHtml(text)}</a></li>`;
  const body = `<main>
<h1>${escapeHtml(title)}</h1>
<p>E-invoicing for Slovak businesses: invoices as structured data or UBL, checked under Peppol BIS
Billing 3.0 and the Slovak rules, delivered over Peppol and filed with the Financial Administration.
The native JSON API is under <code>/api/v1</code>, the SAPI-SK connector under <code>/sapi</code>.</p>
<h2>API</h2>
<ul class="links">
${API_LINKS.map(([href, text]) => item(href, text)).join('\n')}
</ul>
<h2>Guides</h2>
<ul class="links">
${guides.map((g) => item(`/guides/${g.name}`, g.title)).join('\n')}
</ul>
</main>`;
  return htmlPage(title, body);
}
