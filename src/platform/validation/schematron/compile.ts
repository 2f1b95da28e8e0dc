// Schematron model -> XSLT 3.0 text.
//
// Shape of the output:
//  - schema- and pattern-level lets become global variables (evaluated against the document node);
//  - xsl:function and other XSLT declarations are copied through;
//  - each pattern gets its own mode; its rules become templates whose priorities fall in document
//    order, so the first rule whose context matches a node wins, as ISO Schematron requires;
//  - every assert/report is wrapped in xsl:try, so a dynamic error inside one rule becomes a finding;
//  - a finding is one string, fields separated by U+001F, returned to JavaScript as a plain array by
//    SaxonJS's raw delivery.
//
// With `optimize` (the default) the output is faster and gives the same findings (proved by
// `npm run bench -- validation --verify`): `//p:X` scans become key lookups (keys.ts), patterns visit
// only the elements their rules can name (candidates.ts), and findings carry only an index into
// allChecks() while ids, flags and static messages stay in JavaScript (smaller SEF). Without it the
// translation is literal. The cache key is the SHA-256 of the generated XSLT, so any change here
// recompiles.
import type { MessagePart, SchCheck, SchLet, SchRule, SchSchema } from './model.ts';
import { candidateNames } from './candidates.ts';
import { ELEMENT_KEY, KEY_DECLARATIONS, rewriteDescendantScans } from './keys.ts';
import { MOD97_DECLARATION, rewriteMod97 } from './mod97.ts';

export const FIELD_SEPARATOR = '\u001f';
export const ENGINE_NS = 'urn:sk-einvoicing:validation';

const XSL_NS = 'http://www.w3.org/1999/XSL/Transform';
const XS_NS = 'http://www.w3.org/2001/XMLSchema';
const ERR_NS = 'http://www.w3.org/2005/xqt-errors';

function escapeAttr(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;').replace(/\n/g, '&#10;').replace(/\r/g, '&#13;').replace(/\t/g, '&#9;');
}

/** XPath string literal. */
export function lit(s: string): string {
  return `'${s.replace(/'/g, "''")}'`;
}

/** Expression rewriting for one compile: the exact mod 97 always, key lookups when optimising. */
interface Rewriter {
  expr(e: string): string;
  pattern(p: string): string;
}

function rewriter(schema: SchSchema, optimize: boolean): Rewriter {
  const resolve = (prefix: string): string | undefined => schema.namespaces.get(prefix);
  return {
    expr: (e) => rewriteMod97(optimize ? rewriteDescendantScans(e, resolve) : e),
    pattern: (p) => rewriteMod97(optimize ? rewriteDescendantScans(p, resolve, 1) : p),
  };
}

function letVar(rw: Rewriter, l: SchLet): string {
  return `<xsl:variable name="${escapeAttr(l.name)}" select="${escapeAttr(rw.expr(l.value))}"/>`;
}

/** Message as an XPath string expression; whitespace normalized like SVRL text. */
function messageExpr(rw: Rewriter, parts: MessagePart[]): string {
  const pieces = parts.map((p) => {
    if ('text' in p) return lit(p.text);
    if ('select' in p) return `string-join(for $skv_v in (${rw.expr(p.select)}) return string($skv_v), ' ')`;
    return p.name === null ? 'name(.)' : `name(${p.name})`;
  });
  if (pieces.length === 0) return "''";
  const joined = pieces.length === 1 ? pieces[0] ?? "''" : `concat(${pieces.join(', ')}, '')`;
  return `normalize-space(${joined})`;
}

function findingExpr(kind: string, check: SchCheck, message: string): string {
  const sep = `'${FIELD_SEPARATOR}'`;
  return `concat(${lit(kind)}, ${sep}, ${lit(check.id)}, ${sep}, ${lit(check.flag)}, ${sep}, skv:path(.), ${sep}, ${message})`;
}

/** True when the message needs the document (value-of, name); otherwise JavaScript supplies it. */
export function isDynamicMessage(parts: MessagePart[]): boolean {
  return parts.some((p) => !('text' in p));
}

/** XPath normalize-space, for static messages resolved in JavaScript. */
export function normalizeSpace(s: string): string {
  return s.replace(/[ \t\n\r]+/g, ' ').replace(/^ | $/g, '');
}

function checkXslt(rw: Rewriter, check: SchCheck, index: number, compact: boolean): string {
  const fires = check.kind === 'assert' ? `not(${rw.expr(check.test)})` : `(${rw.expr(check.test)})`;
  if (compact) {
    // Small SEF: SaxonJS re-links the whole SEF tree on every transform, so each node costs time
    // on every document. Ids, flags and static messages stay in JavaScript, looked up by index.
    const hit = isDynamicMessage(check.message) ? `skv:hitm(${index}, ., ${messageExpr(rw, check.message)})` : `skv:hit(${index}, .)`;
    return [
      `<xsl:try>`,
      `<xsl:if test="${escapeAttr(fires)}"><xsl:sequence select="${escapeAttr(hit)}"/></xsl:if>`,
      `<xsl:catch><xsl:sequence select="skv:fail(${index}, ., concat($err:code, ' ', $err:description))"/></xsl:catch>`,
      `</xsl:try>`,
    ].join('');
  }
  const error = `concat('Rule ${check.id.replace(/'/g, "''")} could not be evaluated: ', $err:code, ' ', $err:description)`;
  return [
    `<xsl:try>`,
    `<xsl:if test="${escapeAttr(fires)}"><xsl:sequence select="${escapeAttr(findingExpr('F', check, messageExpr(rw, check.message)))}"/></xsl:if>`,
    `<xsl:catch><xsl:sequence select="${escapeAttr(findingExpr('E', check, error))}"/></xsl:catch>`,
    `</xsl:try>`,
  ].join('');
}

const COMPACT_FUNCTIONS = `<xsl:function name="skv:hit" as="xs:string">
      <xsl:param name="i" as="xs:integer"/><xsl:param name="n" as="node()"/>
      <xsl:sequence select="concat('f${FIELD_SEPARATOR}', $i, '${FIELD_SEPARATOR}', skv:path($n))"/>
    </xsl:function>
    <xsl:function name="skv:hitm" as="xs:string">
      <xsl:param name="i" as="xs:integer"/><xsl:param name="n" as="node()"/><xsl:param name="m" as="xs:string"/>
      <xsl:sequence select="concat('f${FIELD_SEPARATOR}', $i, '${FIELD_SEPARATOR}', skv:path($n), '${FIELD_SEPARATOR}', $m)"/>
    </xsl:function>
    <xsl:function name="skv:fail" as="xs:string">
      <xsl:param name="i" as="xs:integer"/><xsl:param name="n" as="node()"/><xsl:param name="m" as="xs:string"/>
      <xsl:sequence select="concat('e${FIELD_SEPARATOR}', $i, '${FIELD_SEPARATOR}', skv:path($n), '${FIELD_SEPARATOR}', $m)"/>
    </xsl:function>`;

/** True when a context's last step may select attributes, so the mode must visit them. */
function mayMatchAttributes(context: string): boolean {
  return /(^|\/|\||\()\s*(@|attribute::)/.test(context);
}

function ruleTemplate(rw: Rewriter, rule: SchRule, mode: string, priority: number, descend: string, first: number, compact: boolean): string {
  return [
    `<xsl:template match="${escapeAttr(rw.pattern(rule.context))}" mode="${mode}" priority="${priority}">`,
    ...rule.lets.map((l) => letVar(rw, l)),
    ...rule.checks.map((c, k) => checkXslt(rw, c, first + k, compact)),
    ...(descend === '' ? [] : [`<xsl:apply-templates select="${descend}" mode="${mode}"/>`]),
    `</xsl:template>`,
  ].join('\n');
}

export interface CompileOptions {
  /**
   * Apply the optimisations (default true). `false` gives the literal translation, which the
   * verification run compares against to prove the optimised rules give identical findings.
   */
  optimize?: boolean;
}

/** Every assert/report in document order; compact findings carry an index into this list. */
export function allChecks(schema: SchSchema): SchCheck[] {
  return schema.patterns.flatMap((p) => p.rules.flatMap((r) => r.checks));
}

export function compileToXslt(schema: SchSchema, options: CompileOptions = {}): string {
  const optimize = options.optimize ?? true;
  const rw = rewriter(schema, optimize);
  const globals = new Map<string, string>();
  const addGlobal = (l: SchLet, where: string): void => {
    if (globals.has(l.name)) throw new Error(`let $${l.name} is declared twice at global level (${where})`);
    globals.set(l.name, letVar(rw, l));
  };
  schema.lets.forEach((l) => addGlobal(l, 'schema'));
  schema.patterns.forEach((p, i) => p.lets.forEach((l) => addGlobal(l, `pattern ${p.id ?? i + 1}`)));

  const ns = [...schema.namespaces].map(([prefix, uri]) => `xmlns:${prefix}="${escapeAttr(uri)}"`).join(' ');
  const out: string[] = [
    `<xsl:stylesheet version="3.0" xmlns:xsl="${XSL_NS}" xmlns:xs="${XS_NS}" xmlns:err="${ERR_NS}" xmlns:skv="${ENGINE_NS}" ${ns} exclude-result-prefixes="#all">`,
    ...globals.values(),
    ...schema.xslDeclarations,
    MOD97_DECLARATION,
    // Location of a node as a prefixed XPath with positions, built only when a rule fires.
    `<xsl:function name="skv:path" as="xs:string">
      <xsl:param name="n" as="node()"/>
      <xsl:sequence select="concat('/', string-join(for $a in $n/ancestor-or-self::node()[parent::node()] return
        if ($a instance of attribute()) then concat('@', name($a))
        else if ($a instance of element()) then concat(name($a), '[', count($a/preceding-sibling::*[node-name(.) eq node-name($a)]) + 1, ']')
        else 'node()', '/'))"/>
    </xsl:function>`,
    ...(optimize ? [...KEY_DECLARATIONS, COMPACT_FUNCTIONS] : []),
  ];

  const modes: string[] = []; // apply-templates instruction that starts each pattern, in order
  let checkIndex = 0; // position in allChecks(schema): the compact findings refer to it
  const resolve = (prefix: string): string | undefined => schema.namespaces.get(prefix);
  schema.patterns.forEach((pattern, pi) => {
    const mode = `skv:p${pi + 1}`;
    const perRule = pattern.rules.map((r) => candidateNames(r.context, resolve));
    const keyed = optimize && perRule.every((n) => n !== null);
    let descend = '';
    if (keyed) {
      // Only elements with the local names this pattern's rules can match, in document order; a
      // same-named element of another namespace is harmless (no rule matches it: deep-skip).
      const names = [...new Set(perRule.flatMap((n) => n ?? []).map((q) => q.replace(/^Q\{[^}]*\}/, '')))].map(lit).join(', ');
      out.push(`<xsl:mode name="${mode}" on-no-match="deep-skip"/>`);
      modes.push(`<xsl:apply-templates select="${escapeAttr(`key('${ELEMENT_KEY}', (${names}))`)}" mode="${mode}"/>`);
    } else {
      descend = pattern.rules.some((r) => mayMatchAttributes(r.context)) ? '@*|*' : '*';
      out.push(`<xsl:mode name="${mode}" on-no-match="shallow-skip"/>`);
      out.push(`<xsl:template match="document-node()" mode="${mode}" priority="-100"><xsl:apply-templates select="*" mode="${mode}"/></xsl:template>`);
      out.push(`<xsl:template match="*" mode="${mode}" priority="-100"><xsl:apply-templates select="${descend}" mode="${mode}"/></xsl:template>`);
      modes.push(`<xsl:apply-templates select="." mode="${mode}"/>`);
    }
    const n = pattern.rules.length;
    pattern.rules.forEach((rule, ri) => {
      out.push(ruleTemplate(rw, rule, mode, n - ri, descend, checkIndex, optimize));
      checkIndex += rule.checks.length;
    });
  });

  out.push(`<xsl:template match="/">${modes.join('')}</xsl:template>`);
  out.push(`</xsl:stylesheet>`);
  return out.join('\n');
}
