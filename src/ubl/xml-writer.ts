/**
 * The project's XML writer: elements are recorded as plain objects (cheap: no DOM node per
 * element) and serialised once, at `end()`, by xmlbuilder2's streaming writer (createCB), which
 * escapes text and attributes and declares namespaces. xmlbuilder2's DOM builder cost about a
 * tenth of a SAPI send's CPU in the TDD and SBDH writers (issue 18's profile) for trees that are
 * only ever written front to back.
 *
 * Thin helpers below always pass the namespace URI: an element with a prefix the writer does not
 * know would silently get `xmlns=""`, so no element is ever created without one. Empty or null
 * text writes nothing: PEPPOL-EN16931-R008 forbids empty elements.
 */
import { createCB } from 'xmlbuilder2';
import type { XMLBuilderCB } from 'xmlbuilder2/lib/interfaces.js';
import { NS } from './ubl-names.ts';

type Child = { kind: 'element'; element: Element } | { kind: 'text'; text: string } | { kind: 'comment'; text: string };

interface Element {
  namespace: string;
  name: string;
  attrs: Record<string, string> | undefined;
  children: Child[];
}

/** An element being written: children are appended in call order, whenever the call comes. */
export interface Node {
  ele(namespace: string, name: string, attrs?: Record<string, string>): Node;
  txt(text: string): Node;
  com(text: string): Node;
}

function nodeOf(element: Element): Node {
  const self: Node = {
    ele(namespace, name, attrs) {
      const child: Element = { namespace, name, attrs, children: [] };
      element.children.push({ kind: 'element', element: child });
      return nodeOf(child);
    },
    txt(text) {
      element.children.push({ kind: 'text', text });
      return self;
    },
    com(text) {
      element.children.push({ kind: 'comment', text });
      return self;
    },
  };
  return self;
}

function replay(writer: XMLBuilderCB, element: Element): void {
  writer.ele(element.namespace, element.name, element.attrs);
  for (const child of element.children) {
    if (child.kind === 'element') replay(writer, child.element);
    else if (child.kind === 'text') writer.txt(child.text);
    else writer.com(child.text);
  }
  writer.up();
}

/** A document (XML 1.0, UTF-8) whose root element is `name` in `namespace`; `end()` gives its indented text. */
export function xmlDocument(namespace: string, name: string, attrs?: Record<string, string>): { root: Node; end(): string } {
  const root: Element = { namespace, name, attrs, children: [] };
  return {
    root: nodeOf(root),
    end() {
      const chunks: string[] = [];
      const writer = createCB({ data: (chunk: string) => void chunks.push(chunk), prettyPrint: true });
      writer.dec({ version: '1.0', encoding: 'UTF-8' });
      replay(writer, root);
      writer.end();
      return chunks.join('');
    },
  };
}

/** A cac: aggregate. */
export function cac(parent: Node, name: string): Node {
  return parent.ele(NS.cac, `cac:${name}`);
}

/** A cbc: basic element with text, unless the text is null or blank. */
export function cbc(parent: Node, name: string, text: string | null | undefined, attrs?: Record<string, string>): void {
  if (text === null || text === undefined || text.trim() === '') return;
  parent.ele(NS.cbc, `cbc:${name}`, attrs).txt(text);
}

/** A cbc: amount with its currency (PEPPOL-EN16931-R051: always the document currency). */
export function amount(parent: Node, name: string, value: string, currency: string): void {
  cbc(parent, name, value, { currencyID: currency });
}
