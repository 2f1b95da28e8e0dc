// The rule file's own keys (top-level `<xsl:key name match use/>`, the Peppol Reporting rules check
// uniqueness with them) and fn:key against them. A key compiles to one function returning its index,
// a Map from key value to the matching nodes in document order, built on the first key() call of a
// document and kept for that document (the per-document memos of runtime.ts). XSLT 3.0 semantics:
// every node the pattern matches is keyed by each atomized value of `use` (evaluated with the node as
// the context item, position and size 1); key() returns the nodes with any of the searched values, in
// document order, each once. Values are compared as strings (xs:untypedAtomic counts as xs:string);
// a value of another type is refused (R.keyString): SaxonJS then validates that document.
// (The `skv:elements` keys of ../schematron/keys.ts are the SaxonJS compilation's own: this engine
// never sees them, it answers `//x` from the tree's name index.)
import { eqName, type Expr } from './ast.ts';
import { CompileError, type ExprCompiler } from './codegen.ts';
import { Kind, type XNode } from './tree.ts';

export interface KeyDeclaration {
  /** Expanded name (`Q{uri}local`). */
  name: string;
  /** The XSLT pattern and the expression, as written. */
  match: string;
  use: string;
}

/** A key name as written (`name`, `p:name`, `Q{uri}name`) -> its expanded name. */
export function keyName(lexical: string, namespaces: ReadonlyMap<string, string>): string {
  const name = lexical.trim();
  if (name.startsWith('Q{')) return name;
  const colon = name.indexOf(':');
  if (colon < 0) return eqName('', name);
  const uri = namespaces.get(name.slice(0, colon));
  if (uri === undefined) throw new CompileError(`undeclared prefix in key name ${name}`);
  return eqName(uri, name.slice(colon + 1));
}

/** Reads one xsl:key; the forms this compiler does not translate (content, collation, composite) throw. */
export function readKey(el: XNode, namespaces: ReadonlyMap<string, string>): KeyDeclaration {
  const attr = (local: string): string | null => el.at.find((a) => a.n === local && a.u === '')?.v ?? null;
  const name = attr('name');
  const match = attr('match');
  const use = attr('use');
  if (name === null || match === null) throw new CompileError('xsl:key without a name or a match');
  if (use === null) throw new CompileError(`xsl:key ${name} without @use`);
  if (attr('collation') !== null || (attr('composite') ?? 'no').trim() !== 'no') throw new CompileError(`xsl:key ${name}: collation or composite`);
  if (el.ch.some((c) => c.k !== Kind.Text || /[^ \t\n\r]/.test(c.v))) throw new CompileError(`xsl:key ${name} has content`);
  return { name: keyName(name, namespaces), match, use };
}

/** What compiling a key needs from the rule set's compiler. */
export interface KeyCompiler {
  x: ExprCompiler;
  fresh(prefix: string): string;
  nodeMemo(key: string): number;
  parse(s: string): Expr;
  matcher(pattern: Expr): string;
  /** Local names an element must have to match the pattern; null when other nodes may match. */
  lastNames(pattern: Expr): string[] | null;
}

/** `function jsName(S)` returning the index of the key (every declaration of that name), built on first use. */
export function compileKey(decls: KeyDeclaration[], jsName: string, k: KeyCompiler): string {
  const defs = decls.map((d) => {
    const pattern = k.parse(d.match);
    const n = k.fresh('n');
    const use = k.x.gen(k.parse(d.use), { vars: new Map(), focus: { c: n, kind: 'node', p: '1', z: '1' } });
    const names = k.lastNames(pattern);
    return `{ names: ${names === null ? 'null' : JSON.stringify(names)}, match: ${k.matcher(pattern)}, use: (S, ${n}) => ${k.x.keyValues(use).c} }`;
  });
  const id = k.nodeMemo(`key ${decls[0]?.name ?? ''}`);
  return `function ${jsName}(S) {\n  return R.nodeMemoGet(S, ${id}, S.root) ?? R.nodeMemoSet(S, ${id}, S.root, R.keyIndex(S, [\n    ${defs.join(',\n    ')}\n  ]));\n}`;
}
