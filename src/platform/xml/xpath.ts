import { XmlXPath, type NamespaceMap, type XmlNode } from 'libxml2-wasm';

/** Expressions kept per namespace map; the code's own are a few hundred, so beyond this an expression is compiled per call. */
const MAX_KEPT = 2_000;

// per map object: callers pass a module's constant map; a map made per call only misses the cache
// (its compiled expressions go with it: libxml2-wasm frees them when collected)
const kept = new WeakMap<NamespaceMap, Map<string, XmlXPath>>();

const uses = (expression: string, prefix: string) => new RegExp(`(?<![\\w.-])${prefix}:`).test(expression);

/**
 * An XPath expression compiled once, with only the prefixes of `namespaces` that it uses. Given a
 * string, libxml2-wasm compiles the expression on every call and registers every prefix of the
 * map (a UTF-8 copy of each prefix and URI) for every evaluation: about a tenth of the main
 * thread's work on a SAPI send, for reading fields one XPath at a time. Compiled expressions hold
 * no document and live as long as the process.
 */
function compiled(expression: string, namespaces: NamespaceMap): XmlXPath | null {
  let forMap = kept.get(namespaces);
  if (!forMap) kept.set(namespaces, (forMap = new Map()));
  const found = forMap.get(expression);
  if (found) return found;
  if (forMap.size >= MAX_KEPT) return null;
  const used = Object.fromEntries(Object.entries(namespaces).filter(([prefix]) => uses(expression, prefix)));
  const made = XmlXPath.compile(expression, used);
  forMap.set(expression, made);
  return made;
}

/** The first node at `expression` from `node`, or null (XmlNode.get, with the expression compiled once). */
export function firstAt(node: XmlNode, expression: string, namespaces: NamespaceMap): XmlNode | null {
  const xpath = compiled(expression, namespaces);
  return xpath ? node.get(xpath) : node.get(expression, namespaces);
}

/** Every node at `expression` from `node` (XmlNode.find, with the expression compiled once). */
export function allAt(node: XmlNode, expression: string, namespaces: NamespaceMap): XmlNode[] {
  const xpath = compiled(expression, namespaces);
  return xpath ? node.find(xpath) : node.find(expression, namespaces);
}
