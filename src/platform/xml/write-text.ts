// The text xmlbuilder2 4 writes for a recorded document (`end({prettyPrint: true})`), written
// directly: no DOM is built. It follows xmlbuilder2's XMLWriter and BaseWriter step for step (the
// DOM Parsing namespace algorithm, its escaping, its pretty printing) for the documents the
// service writes: names that are ASCII NCNames, elements always in a namespace, attributes either
// unprefixed or `xmlns:prefix` declarations, no prefix bound to two namespaces along a path, no
// default namespace declared as an attribute. Anything else gives null, and ./write.ts lets
// xmlbuilder2 build and write it as before. test/xml/write.test.ts holds the two to the same bytes.

type RecordedChild = { kind: 'element'; element: RecordedElement } | { kind: 'text'; text: string } | { kind: 'comment'; text: string };

export interface RecordedElement {
  namespace: string;
  name: string;
  attrs: Record<string, string> | undefined;
  children: RecordedChild[];
}

const XML_NS = 'http://www.w3.org/XML/1998/namespace';
const XMLNS_NS = 'http://www.w3.org/2000/xmlns/';
const NCNAME = /^[A-Za-z_][A-Za-z0-9_.-]*$/;
// a URI with a scheme and no spaces: xmlbuilder2 reads some other strings as markup, JSON, YAML or a namespace alias
const NAMESPACE = /^[A-Za-z][A-Za-z0-9+.-]*:\S*$/;
const INDENT = '  ';

// every ampersand: text is data, never markup (xmlbuilder2 alone would leave one that looks like a
// reference, so "AT&T;" became an undefined entity; ./write.ts escapes it before xmlbuilder2 sees it)
const escapeText = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const escapeAttribute = (value: string) => escapeText(value).replace(/"/g, '&quot;');

/** A document this writer does not reproduce: xmlbuilder2 writes it. */
class Unsupported extends Error {}

/** Prefixes bound on the path to an element (xml included), as the namespace prefix map of the algorithm. */
type Scope = ReadonlyMap<string, string>;

const boundTo = (scope: Scope, namespace: string) => [...scope.values()].includes(namespace);

function splitName(name: string): [prefix: string | null, local: string] {
  const colon = name.indexOf(':');
  const [prefix, local] = colon < 0 ? [null, name] : [name.slice(0, colon), name.slice(colon + 1)];
  if (!NCNAME.test(local) || (prefix !== null && (!NCNAME.test(prefix) || prefix === 'xml' || prefix === 'xmlns'))) throw new Unsupported();
  return [prefix, local];
}

class Writer {
  markup = '<?xml version="1.0" encoding="UTF-8"?>\n';
  private level = 0;
  private suppressPretty = false;
  private emptyNode = false;

  private beginLine(): void {
    if (!this.suppressPretty) this.markup += INDENT.repeat(this.level);
  }

  private endLine(): void {
    if (!this.suppressPretty) this.markup += '\n';
  }

  element(element: RecordedElement, inherited: string | null, scope: Scope): void {
    const ns = element.namespace;
    if (typeof ns !== 'string' || !NAMESPACE.test(ns) || ns === XML_NS || ns === XMLNS_NS) throw new Unsupported();
    const [prefix, local] = splitName(element.name);

    // the element's attributes; its namespace declarations recorded first (step 8 of the algorithm)
    const attributes: [string, string][] = [];
    let own = scope;
    const bind = (p: string, uri: string) => {
      if (own === scope) own = new Map(scope);
      (own as Map<string, string>).set(p, uri);
    };
    for (const [name, value] of Object.entries(element.attrs ?? {})) {
      if (typeof value !== 'string') throw new Unsupported();
      if (name.startsWith('xmlns:')) {
        const declared = name.slice(6);
        if (!NCNAME.test(declared) || declared === 'xml' || declared === 'xmlns' || value === '' || value === XML_NS || value === XMLNS_NS) throw new Unsupported();
        const before = scope.get(declared);
        if (before === value) continue; // declared on an ancestor already: left out
        if (before !== undefined || own.has(declared)) throw new Unsupported();
        bind(declared, value);
        attributes.push([name, value]);
      } else {
        if (!NCNAME.test(name) || name === 'xmlns') throw new Unsupported();
        attributes.push([name, value]);
      }
    }

    // the element's name, and the declaration its namespace needs (steps 11 and 12)
    let qualified: string;
    let generated: [string, string] | null = null;
    let childInherited = inherited;
    if (ns === inherited) {
      qualified = local;
    } else if (prefix !== null) {
      if (own.get(prefix) === ns) {
        qualified = `${prefix}:${local}`;
      } else {
        if (boundTo(own, ns) || own.has(prefix)) throw new Unsupported();
        bind(prefix, ns);
        generated = [`xmlns:${prefix}`, ns];
        qualified = `${prefix}:${local}`;
      }
    } else {
      if (boundTo(own, ns)) throw new Unsupported();
      generated = ['xmlns', ns];
      qualified = local;
      childInherited = ns;
    }

    this.beginLine();
    this.markup += `<${qualified}`;
    if (generated) this.markup += ` ${generated[0]}="${escapeAttribute(generated[1])}"`;
    for (const [name, value] of attributes) this.markup += ` ${name}="${escapeAttribute(value)}"`;

    if (element.children.length === 0) {
      this.suppressPretty = false;
      this.emptyNode = false;
      this.markup += '/>';
      this.endLine();
      return;
    }
    // text only: on the element's line; no text at all: written empty
    let textOnly = true;
    let empty = true;
    for (const child of element.children) {
      if (child.kind !== 'text') {
        textOnly = false;
        empty = false;
        break;
      }
      if (child.text !== '') empty = false;
    }
    this.suppressPretty = textOnly;
    this.emptyNode = empty;
    this.markup += empty ? '/>' : '>';
    this.endLine();

    for (const child of element.children) {
      this.level++;
      if (child.kind === 'element') {
        this.element(child.element, childInherited, own);
      } else if (child.kind === 'text') {
        if (typeof child.text !== 'string') throw new Unsupported();
        const text = escapeText(child.text);
        if (text !== '') {
          this.beginLine();
          this.markup += text;
          this.endLine();
        }
      } else {
        if (typeof child.text !== 'string') throw new Unsupported();
        this.beginLine();
        this.markup += `<!--${child.text}-->`;
        this.endLine();
      }
      this.level--;
    }

    if (!this.emptyNode) {
      this.beginLine();
      this.markup += `</${qualified}>`;
    }
    this.suppressPretty = false;
    this.emptyNode = false;
    this.endLine();
  }
}

/** The document xmlbuilder2 would write for `root`, or null when it is not one this writer reproduces. */
export function writeText(root: RecordedElement): string | null {
  const writer = new Writer();
  try {
    writer.element(root, null, new Map([['xml', XML_NS]]));
  } catch (error) {
    if (error instanceof Unsupported) return null;
    throw error;
  }
  return writer.markup.endsWith('\n') ? writer.markup.slice(0, -1) : writer.markup;
}
