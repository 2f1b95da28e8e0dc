// The one XML writer. xmlbuilder2's create() and fragment() also accept XML text, which they parse
// with xmlbuilder2's own parser (no limits, entities of its own making): a second parser the safe
// one in ./parse.ts would not govern. So writers never import xmlbuilder2 directly: they start a
// document here, where construction can only begin empty.
//
// Elements are recorded as plain objects and built into xmlbuilder2's document once, at `end()`,
// which serialises them (escaping, namespace declarations). Its streaming writer (createCB) was
// tried for this and was six times slower: it makes a DOM fragment and clones its options per call.
import { create } from 'xmlbuilder2';
import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces.js';

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

function build(parent: XMLBuilder, element: Element): void {
  const node = parent.ele(element.namespace, element.name, element.attrs);
  for (const child of element.children) {
    if (child.kind === 'element') build(node, child.element);
    else if (child.kind === 'text') node.txt(child.text);
    else node.com(child.text);
  }
}

/** A document (XML 1.0, UTF-8) whose root element is `name` in `namespace`; `end()` gives its indented text. */
export function newXmlDocument(namespace: string, name: string, attrs?: Record<string, string>): { root: XmlElementWriter; end(): string } {
  const root: Element = { namespace, name, attrs, children: [] };
  return {
    root: nodeOf(root),
    end() {
      const document = create({ version: '1.0', encoding: 'UTF-8' });
      build(document, root);
      return document.end({ prettyPrint: true });
    },
  };
}
