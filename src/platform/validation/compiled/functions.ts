// xsl:function declarations of a rule file (Peppol's u:gln, u:mod11, u:checkCodiceIPA, ..., ours
// sk:ico-valid, the Reporting rules' f:schemeAndValue) -> JavaScript functions. The subset the
// official files use: xsl:param (with `as`), xsl:variable (select, text content, value-of content,
// `as`), xsl:sequence, xsl:value-of, xsl:text, xsl:choose/when/otherwise and xsl:if. Parameters and
// results follow XSLT's function conversion rules (R.convert). Anything else makes the function, and
// the rules that call it, fall back. The xsl:key declarations are read here too (keys.ts compiles them).
import { eqName, type SequenceType } from './ast.ts';
import { CompileError, declaredType, type ExprCompiler, type G, type Scope } from './codegen.ts';
import { readKey, type KeyDeclaration } from './keys.ts';
import { parseXPath } from './parser.ts';
import { Kind, parseXml, type XNode } from './tree.ts';
import { rewriteMod97 } from '../schematron/mod97.ts';

const XSL = 'http://www.w3.org/1999/XSL/Transform';

export interface FunctionDeclaration {
  name: string;
  arity: number;
  params: { name: string; type: SequenceType | null }[];
  result: SequenceType | null;
  element: XNode;
}

function attr(el: XNode, name: string): string | null {
  for (const a of el.at) if (a.n === name && a.u === '') return a.v;
  return null;
}

/** Element children; non-whitespace text is refused unless the caller reads it (`allowText`). */
function elements(el: XNode, allowText = false): XNode[] {
  const out: XNode[] = [];
  for (const c of el.ch) {
    if (c.k === Kind.Element) out.push(c);
    else if (c.k === Kind.Text && !allowText && /[^ \t\n\r]/.test(c.v)) throw new CompileError('literal text in a function body');
  }
  return out;
}

/** Parses the `as` attribute through the XPath parser's sequence-type grammar. */
function sequenceType(as: string | null, namespaces: ReadonlyMap<string, string>): SequenceType | null {
  if (as === null) return null;
  const e = parseXPath(`() instance of ${as}`, { namespaces });
  if (e.t !== 'instance') throw new CompileError(`bad type ${as}`);
  return e.type;
}

function qname(name: string, namespaces: ReadonlyMap<string, string>): string {
  const colon = name.indexOf(':');
  if (colon < 0) throw new CompileError(`function ${name} has no namespace`);
  const uri = namespaces.get(name.slice(0, colon));
  if (uri === undefined) throw new CompileError(`undeclared prefix in ${name}`);
  return eqName(uri, name.slice(colon + 1));
}

export interface Declarations {
  functions: FunctionDeclaration[];
  keys: KeyDeclaration[];
}

/** Reads the xsl:function and xsl:key declarations (other XSLT declarations are not supported: they throw). */
export function readDeclarations(declarations: string[], namespaces: ReadonlyMap<string, string>): Declarations {
  const out: FunctionDeclaration[] = [];
  const keys: KeyDeclaration[] = [];
  if (declarations.length === 0) return { functions: out, keys };
  const decls = [...namespaces].map(([p, u]) => ` xmlns:${p}="${u.replace(/&/g, '&amp;').replace(/"/g, '&quot;')}"`).join('');
  const doc = parseXml(`<wrap xmlns:xsl="${XSL}"${decls}>${declarations.join('')}</wrap>`);
  const wrap = doc.root.ch[0] as XNode;
  for (const el of elements(wrap)) {
    if (el.u === XSL && el.n === 'key') {
      keys.push(readKey(el, namespaces));
      continue;
    }
    if (el.u !== XSL || el.n !== 'function') throw new CompileError(`xsl:${el.n} declarations are not supported`);
    const name = attr(el, 'name');
    if (name === null) throw new CompileError('xsl:function without a name');
    const params: FunctionDeclaration['params'] = [];
    for (const c of elements(el)) {
      if (c.u === XSL && c.n === 'param') params.push({ name: attr(c, 'name') ?? '', type: sequenceType(attr(c, 'as'), namespaces) });
    }
    out.push({ name: qname(name, namespaces), arity: params.length, params, result: sequenceType(attr(el, 'as'), namespaces), element: el });
  }
  return { functions: out, keys };
}

function typeKey(t: SequenceType): string {
  const item = t.item;
  if (item === null) throw new CompileError('empty-sequence() types are not supported');
  if (item.kind === 'item') return 'item';
  if (item.kind === 'atomic') return item.type;
  if (item.test.kind === 'node') return 'node';
  if ((item.test.kind === 'element' || item.test.kind === 'attribute') && item.test.local === null) return item.test.kind;
  throw new CompileError('named kind tests in types are not supported');
}

/** Code converting a sequence to a declared type, and the resulting representation. */
export function convertCode(seqCode: string, t: SequenceType | null): G {
  if (t === null) return { c: seqCode, card: 'many', kind: 'item' };
  const { card, kind } = declaredType(t);
  const converted = `R.convert(${seqCode}, ${JSON.stringify(typeKey(t))}, ${JSON.stringify(t.occ)})`;
  if (card === 'one') return { c: `${converted}[0]`, card, kind };
  if (card === 'opt') return { c: `R.opt(${converted})`, card, kind };
  return { c: converted, card, kind };
}

/** Compiles one function to a JavaScript function declaration named `jsName`. */
export function compileFunction(f: FunctionDeclaration, jsName: string, x: ExprCompiler, fresh: (p: string) => string, namespaces: ReadonlyMap<string, string>): string {
  const args = f.params.map((_, k) => `a${k}`);
  const lines: string[] = [];
  let scope: Scope = { vars: new Map(), focus: null };
  f.params.forEach((p, k) => {
    const v = fresh('p');
    const conv = convertCode(args[k] as string, p.type);
    lines.push(`const ${v} = ${conv.c};`);
    scope = x.bind(scope, p.name, { c: v, card: conv.card, kind: conv.kind });
  });
  const xp = (s: string, sc: Scope): G => x.gen(parseXPath(s, { namespaces }), sc);
  const out = fresh('out');
  lines.push(`const ${out} = [];`);

  const body = (children: XNode[], sc0: Scope, indent: string): string[] => {
    const code: string[] = [];
    let sc = sc0;
    for (const el of children) {
      if (el.u !== XSL) throw new CompileError(`literal result element ${el.n} in a function`);
      switch (el.n) {
        case 'param':
          break;
        case 'variable': {
          const name = attr(el, 'name') ?? '';
          const select = attr(el, 'select');
          const type = sequenceType(attr(el, 'as'), namespaces);
          const v = fresh('v');
          let value: G;
          if (select !== null) {
            value = xp(select, sc);
            if (type !== null) value = convertCode(x.seq(value), type);
          } else {
            const inner = fresh('t');
            const contentLines = body(elements(el, true), sc, `${indent}  `);
            const text = el.ch.filter((c) => c.k === Kind.Text).map((c) => c.v).join('');
            if (contentLines.length > 0 && /[^ \t\n\r]/.test(text)) throw new CompileError('mixed variable content');
            if (contentLines.length === 0) {
              // text content: a temporary document with one text node
              if (type !== null) throw new CompileError('typed variable with text content');
              value = { c: fresh('d'), card: 'one', kind: 'node' };
              code.push(`${indent}const ${value.c} = R.textDocument(${JSON.stringify(text)});`);
              sc = x.bind(sc, name, value);
              continue;
            }
            code.push(`${indent}const ${inner} = [];`);
            code.push(...contentLines.map((l) => l.replace(new RegExp(`\\b${out}\\.push\\(`, 'g'), `${inner}.push(`)));
            if (type === null) {
              value = { c: `R.textDocument(${inner}.map((n) => R.str(n)).join(''))`, card: 'one', kind: 'node' };
            } else value = convertCode(inner, type);
          }
          code.push(`${indent}const ${v} = ${value.c};`);
          sc = x.bind(sc, name, { ...value, c: v });
          break;
        }
        case 'sequence': {
          const g = xp(attr(el, 'select') ?? '()', sc);
          code.push(`${indent}for (const i of ${x.seq(g)}) ${out}.push(i);`);
          break;
        }
        case 'text': {
          // a text node, even a zero-length one (it is no complex content: nothing removes it)
          if (el.at.some((a) => a.u === '')) throw new CompileError('xsl:text with attributes');
          const text = el.ch.map((c) => {
            if (c.k !== Kind.Text) throw new CompileError('xsl:text with element content');
            return c.v;
          });
          code.push(`${indent}${out}.push(R.valueOf([${JSON.stringify(text.join(''))}]));`);
          break;
        }
        case 'value-of': {
          const select = attr(el, 'select');
          if (select === null || attr(el, 'separator') !== null) throw new CompileError('xsl:value-of without select or with a separator');
          const g = xp(select, sc);
          code.push(`${indent}${out}.push(R.valueOf(${x.seq(g)}));`);
          break;
        }
        case 'if': {
          const test = x.ebv(xp(attr(el, 'test') ?? 'false()', sc));
          code.push(`${indent}if (${test}) {`, ...body(elements(el), sc, `${indent}  `), `${indent}}`);
          break;
        }
        case 'choose': {
          const branches = elements(el);
          branches.forEach((b, k) => {
            if (b.u !== XSL || (b.n !== 'when' && b.n !== 'otherwise')) throw new CompileError('bad xsl:choose');
            const head = b.n === 'when' ? `${k === 0 ? '' : '} else '}if (${x.ebv(xp(attr(b, 'test') ?? 'false()', sc))}) {` : '} else {';
            code.push(`${indent}${head}`, ...body(elements(b), sc, `${indent}  `));
          });
          code.push(`${indent}}`);
          break;
        }
        default:
          throw new CompileError(`xsl:${el.n} is not supported in functions`);
      }
    }
    return code;
  };

  lines.push(...body(elements(f.element), scope, ''));
  const result = convertCode(out, f.result);
  lines.push(`return ${result.c};`);
  return `function ${jsName}(S, ${args.join(', ')}) {\n${lines.join('\n')}\n}`;
}

/** The mod 97 rewrite the SaxonJS compilation applies to rule expressions (not to function bodies). */
export function ruleExpression(s: string): string {
  return rewriteMod97(s);
}
