// The one XML writer. xmlbuilder2's create() and fragment() also accept XML text, which they parse
// with xmlbuilder2's own parser (no limits, entities of its own making): a second parser the safe
// one in ./parse.ts would not govern. So writers never import xmlbuilder2 directly: they start a
// document here, where construction can only begin empty.
//
// Elements are recorded as plain objects (cheap: no DOM node per element) and serialised once, at
// `end()`, by xmlbuilder2's streaming writer (createCB), which escapes text and attributes and
// declares namespaces. xmlbuilder2's DOM builder cost about a tenth of a SAPI send's CPU in the TDD
// and SBDH writers (issue 18's profile), for trees that are only ever written front to back.
import { createCB } from 'xmlbuilder2';
import type { XMLBuilderCB } from 'xmlbuilder2/lib/interfaces.js';

type Child = { kind: 'element'; element: Element } | { kind: 'text'; text: string } | { kind: 'comment'; text: string };

interface Element {
  namespace: string;
  name: string;
  attrs: Record<string, string> | undefined;
  children: Child[];
}

/** An element being written: children are appended in call order, whenever the call comes. */
export interface XmlElementWriter {
  ele(namespace: string, name: string, attrs?: Record<string, string>): XmlElementWriter;
  txt(text: string): XmlElementWriter;
  com(text: string): XmlElementWriter;
}

function nodeOf(element: Element): XmlElementWriter {
  const self: XmlElementWriter = {
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
export function newXmlDocument(namespace: string, name: string, attrs?: Record<string, string>): { root: XmlElementWriter; end(): string } {
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
