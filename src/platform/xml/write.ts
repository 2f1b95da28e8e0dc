// The one XML writer. xmlbuilder2's create() and fragment() also accept XML text, which they parse
// with xmlbuilder2's own parser (no limits, entities of its own making): a second parser the safe
// one in ./parse.ts would not govern. So writers never import xmlbuilder2 directly: they start a
// document here, where construction can only begin empty.
//
// Elements are recorded as plain objects and serialised at `end()`. The text is xmlbuilder2's own
// (its namespace algorithm, escaping and pretty printing, which every document the service has
// written so far has), written straight from the recorded tree by ./write-text.ts: building
// xmlbuilder2's DOM first was most of the cost of a TDD or an SBDH header. A document outside what
// that writer reproduces (an unusual use of namespaces) goes through xmlbuilder2's DOM as before.
// Its streaming writer (createCB) was tried too and was six times slower: it makes a DOM fragment
// and clones its options per call.
import { create } from 'xmlbuilder2';
import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces.js';
import { writeText, type RecordedElement } from './write-text.ts';

/** An element being written: children are appended in call order, whenever the call comes. */
export interface XmlElementWriter {
  ele(namespace: string, name: string, attrs?: Record<string, string>): XmlElementWriter;
  txt(text: string): XmlElementWriter;
  com(text: string): XmlElementWriter;
}

function nodeOf(element: RecordedElement): XmlElementWriter {
  const self: XmlElementWriter = {
    ele(namespace, name, attrs) {
      const child: RecordedElement = { namespace, name, attrs, children: [] };
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

// xmlbuilder2 escapes an ampersand only when it does not look like a reference ("AT&T;" stayed an
// undefined entity, "&amp;" turned into "&"): given every one already as &amp;, it writes text as data
const ampersands = (text: string) => text.replace(/&/g, '&amp;');

function build(parent: XMLBuilder, element: RecordedElement): void {
  const attrs = element.attrs && Object.fromEntries(Object.entries(element.attrs).map(([k, v]) => [k, ampersands(v)]));
  const node = parent.ele(element.namespace, element.name, attrs);
  for (const child of element.children) {
    if (child.kind === 'element') build(node, child.element);
    else if (child.kind === 'text') node.txt(ampersands(child.text));
    else node.com(child.text);
  }
}

/** xmlbuilder2's serialisation, through its DOM. */
function viaDom(root: RecordedElement): string {
  const document = create({ version: '1.0', encoding: 'UTF-8' });
  build(document, root);
  return document.end({ prettyPrint: true });
}

let reference = false;

/**
 * Runs `write` with every `end()` serialising through xmlbuilder2's DOM, the reference the direct
 * writer is held to: for tests that compare the two on the documents the service writes.
 */
export function withReferenceWriter<T>(write: () => T): T {
  const before = reference;
  reference = true;
  try {
    return write();
  } finally {
    reference = before;
  }
}

/** A document (XML 1.0, UTF-8) whose root element is `name` in `namespace`; `end()` gives its indented text. */
export function newXmlDocument(namespace: string, name: string, attrs?: Record<string, string>): { root: XmlElementWriter; end(): string } {
  const root: RecordedElement = { namespace, name, attrs, children: [] };
  return {
    root: nodeOf(root),
    end() {
      return (reference ? null : writeText(root)) ?? viaDom(root);
    },
  };
}
