// Reads a Schematron file into the model. Anything the compiler cannot honour exactly (abstract rules,
// includes, unknown elements) is an error, so a rule set is never silently run half-way.
import { XmlElement, XmlText, XmlCData, type XmlTreeNode, parseTrusted } from '../../xml/index.ts';
import type { MessagePart, SchCheck, SchLet, SchPattern, SchRule, SchSchema } from './model.ts';

const SCH = 'http://purl.oclc.org/dsdl/schematron';
const XSL = 'http://www.w3.org/1999/XSL/Transform';

class SchematronSyntaxError extends Error {}

function children(el: XmlElement): XmlElement[] {
  const out: XmlElement[] = [];
  for (let n: XmlTreeNode | null = el.firstChild; n; n = n.next) if (n instanceof XmlElement) out.push(n);
  return out;
}

function attr(el: XmlElement, name: string): string | null {
  return el.attr(name)?.value ?? null;
}

function required(el: XmlElement, name: string): string {
  const v = attr(el, name);
  if (v === null) throw new SchematronSyntaxError(`<${el.name}> on line ${el.line} lacks @${name}`);
  return v;
}

function isSch(el: XmlElement, local: string): boolean {
  return el.namespaceUri === SCH && el.name === local;
}

function parseLet(el: XmlElement): SchLet {
  const value = attr(el, 'value');
  if (value === null) throw new SchematronSyntaxError(`let ${attr(el, 'name') ?? ''} on line ${el.line}: only @value lets are supported`);
  return { name: required(el, 'name'), value };
}

function parseMessage(el: XmlElement): MessagePart[] {
  const parts: MessagePart[] = [];
  for (let n: XmlTreeNode | null = el.firstChild; n; n = n.next) {
    if (n instanceof XmlText || n instanceof XmlCData) parts.push({ text: n.content });
    else if (n instanceof XmlElement) {
      if (isSch(n, 'value-of')) parts.push({ select: required(n, 'select') });
      else if (isSch(n, 'name')) parts.push({ name: attr(n, 'path') });
      else parts.push({ text: n.content }); // emph, dir, span: keep their text
    }
  }
  return parts;
}

function parseCheck(el: XmlElement, kind: 'assert' | 'report', ruleFlag: string | null): SchCheck {
  const flag = attr(el, 'flag') ?? attr(el, 'role') ?? ruleFlag ?? 'fatal';
  const normalized = flag.toLowerCase() === 'warning' || flag.toLowerCase() === 'warn' ? 'warning' : 'fatal';
  return { kind, id: attr(el, 'id') ?? `line-${el.line}`, flag: normalized, test: required(el, 'test'), message: parseMessage(el) };
}

function parseRule(el: XmlElement): SchRule {
  if (attr(el, 'abstract') === 'true') throw new SchematronSyntaxError(`abstract rule on line ${el.line} is not supported`);
  const rule: SchRule = { context: required(el, 'context'), lets: [], checks: [] };
  const ruleFlag = attr(el, 'flag');
  for (const c of children(el)) {
    if (isSch(c, 'let')) rule.lets.push(parseLet(c));
    else if (isSch(c, 'assert')) rule.checks.push(parseCheck(c, 'assert', ruleFlag));
    else if (isSch(c, 'report')) rule.checks.push(parseCheck(c, 'report', ruleFlag));
    else if (isSch(c, 'title') || isSch(c, 'p')) continue;
    else throw new SchematronSyntaxError(`unsupported <${c.name}> in rule on line ${c.line}`);
  }
  return rule;
}

function parsePattern(el: XmlElement): SchPattern {
  if (attr(el, 'abstract') === 'true' || attr(el, 'is-a') !== null) {
    throw new SchematronSyntaxError(`abstract pattern on line ${el.line} is not supported`);
  }
  const pattern: SchPattern = { id: attr(el, 'id'), lets: [], rules: [] };
  for (const c of children(el)) {
    if (isSch(c, 'let')) pattern.lets.push(parseLet(c));
    else if (isSch(c, 'rule')) pattern.rules.push(parseRule(c));
    else if (isSch(c, 'title') || isSch(c, 'p')) continue;
    else throw new SchematronSyntaxError(`unsupported <${c.name}> in pattern on line ${c.line}`);
  }
  return pattern;
}

export function parseSchematron(source: string | Uint8Array): SchSchema {
  const doc = parseTrusted(source);
  try {
    const root = doc.root;
    if (!isSch(root, 'schema')) throw new SchematronSyntaxError('root element is not an ISO Schematron <schema>');
    const schema: SchSchema = { namespaces: new Map(), lets: [], xslDeclarations: [], patterns: [] };
    for (const [prefix, uri] of Object.entries(root.nsDeclarations)) {
      if (prefix !== '' && uri !== SCH) schema.namespaces.set(prefix, uri);
    }
    for (const c of children(root)) {
      if (isSch(c, 'ns')) schema.namespaces.set(required(c, 'prefix'), required(c, 'uri'));
      else if (isSch(c, 'let')) schema.lets.push(parseLet(c));
      else if (isSch(c, 'pattern')) schema.patterns.push(parsePattern(c));
      else if (c.namespaceUri === XSL) schema.xslDeclarations.push(c.toString());
      else if (isSch(c, 'title') || isSch(c, 'phase') || isSch(c, 'p') || isSch(c, 'diagnostics')) continue;
      else throw new SchematronSyntaxError(`unsupported <${c.name}> on line ${c.line}`);
    }
    return schema;
  } finally {
    doc.dispose();
  }
}
