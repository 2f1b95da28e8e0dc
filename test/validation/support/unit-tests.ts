// Reads the official rule unit tests (VEFA validator format) and scores findings against them.
import fs from 'node:fs';
import path from 'node:path';
import { XmlElement, type XmlTreeNode, parseTrusted } from '../../../src/platform/xml/index.ts';
import type { Finding } from '../../../src/platform/validation/types.ts';

const VEFA = 'http://difi.no/xsd/vefa/validator/1.0';

export interface Expectation {
  kind: 'success' | 'error' | 'warning';
  rule: string;
  /** Exact number of firings, when the test says so. */
  count: number | null;
}

export interface UnitTest {
  file: string;
  index: number;
  configuration: string;
  xml: string;
  expectations: Expectation[];
}

function elements(el: XmlElement): XmlElement[] {
  const out: XmlElement[] = [];
  for (let n: XmlTreeNode | null = el.firstChild; n; n = n.next) if (n instanceof XmlElement) out.push(n);
  return out;
}

/** Serializes an inline document so that it stands alone: prefixes declared on ancestors are added. */
function standalone(el: XmlElement): string {
  const text = el.toString();
  const own = el.nsDeclarations;
  const missing = Object.entries(el.namespaces).filter(([prefix]) => !(prefix in own) && prefix !== '');
  if (missing.length === 0) return text;
  const decls = missing.map(([p, uri]) => ` xmlns:${p}="${uri}"`).join('');
  return text.replace(/^<([^\s>/]+)/, `<$1${decls}`);
}

export function readUnitTests(file: string): UnitTest[] {
  const doc = parseTrusted(fs.readFileSync(file));
  try {
    const configuration = doc.root.attr('configuration')?.value ?? '';
    return elements(doc.root)
      .filter((e) => e.name === 'test' && e.namespaceUri === VEFA)
      .map((test, index) => {
        const kids = elements(test);
        const assert = kids.find((k) => k.name === 'assert' && k.namespaceUri === VEFA);
        const body = kids.find((k) => k.namespaceUri !== VEFA);
        if (!body) throw new Error(`${file}: test ${index + 1} has no document`);
        const expectations = (assert ? elements(assert) : [])
          .filter((e) => e.name === 'success' || e.name === 'error' || e.name === 'warning')
          .map((e) => ({
            kind: e.name as Expectation['kind'],
            rule: e.content.trim(),
            count: e.attr('number') ? Number(e.attr('number')?.value) : null,
          }));
        return { file, index, configuration, xml: standalone(body), expectations };
      });
  } finally {
    doc.dispose();
  }
}

export function listXmlFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile() && /\.xml?$/i.test(d.name))
    .map((d) => path.join(d.parentPath, d.name))
    .sort();
}

/** Null when met, else why not. */
export function checkExpectation(e: Expectation, findings: Finding[]): string | null {
  const fired = findings.filter((f) => f.rule === e.rule);
  if (e.kind === 'success') return fired.length === 0 ? null : `${e.rule} fired ${fired.length}x (${fired[0]?.message ?? ''})`;
  const flag = e.kind === 'error' ? 'fatal' : 'warning';
  const matching = fired.filter((f) => f.flag === flag);
  if (e.count !== null) return matching.length === e.count ? null : `${e.rule} fired ${matching.length}x as ${flag}, expected ${e.count}`;
  return matching.length > 0 ? null : `${e.rule} did not fire as ${flag} (fired ${fired.length}x: ${fired.map((f) => f.flag).join(',')})`;
}
