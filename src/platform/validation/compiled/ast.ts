// The XPath 2.0 (plus the few 3.x forms the rule files use) syntax tree the compiler works on.

export type Axis =
  | 'child'
  | 'attribute'
  | 'self'
  | 'parent'
  | 'ancestor'
  | 'ancestor-or-self'
  | 'descendant'
  | 'descendant-or-self'
  | 'following-sibling'
  | 'preceding-sibling'
  | 'following'
  | 'preceding';

/** `uri`/`local` null means any (a wildcard). */
export type NodeTest =
  | { kind: 'name'; uri: string | null; local: string | null }
  | { kind: 'node' }
  | { kind: 'text' }
  | { kind: 'comment' }
  | { kind: 'pi'; target: string | null }
  | { kind: 'element'; uri: string | null; local: string | null }
  | { kind: 'attribute'; uri: string | null; local: string | null }
  | { kind: 'document' };

/** Atomic types the engine casts to and tests for (expanded `xs:` local names). */
export type AtomicTypeName = 'string' | 'boolean' | 'decimal' | 'integer' | 'double' | 'date' | 'untypedAtomic' | 'anyAtomicType' | 'numeric';

export type ItemType = { kind: 'atomic'; type: AtomicTypeName } | { kind: 'node'; test: NodeTest } | { kind: 'item' };

export interface SequenceType {
  item: ItemType | null; // null: empty-sequence()
  occ: '' | '?' | '*' | '+';
}

export type BinaryOp =
  | 'or'
  | 'and'
  | '='
  | '!='
  | '<'
  | '<='
  | '>'
  | '>='
  | 'eq'
  | 'ne'
  | 'lt'
  | 'le'
  | 'gt'
  | 'ge'
  | 'is'
  | '<<'
  | '>>'
  | 'to'
  | '+'
  | '-'
  | '*'
  | 'div'
  | 'idiv'
  | 'mod'
  | 'union'
  | 'intersect'
  | 'except'
  | '||';

export type Expr =
  | { t: 'string'; v: string }
  | { t: 'integer'; v: string }
  | { t: 'decimal'; v: string }
  | { t: 'double'; v: string }
  | { t: 'var'; name: string }
  | { t: 'context' }
  | { t: 'root' }
  | { t: 'path'; lhs: Expr; rhs: Expr }
  | { t: 'step'; axis: Axis; test: NodeTest; preds: Expr[] }
  | { t: 'filter'; base: Expr; preds: Expr[] }
  | { t: 'call'; name: string; args: Expr[] }
  | { t: 'binary'; op: BinaryOp; l: Expr; r: Expr }
  | { t: 'unary'; op: '-' | '+'; e: Expr }
  | { t: 'if'; cond: Expr; then: Expr; else: Expr }
  | { t: 'for'; name: string; in: Expr; ret: Expr }
  | { t: 'let'; name: string; value: Expr; ret: Expr }
  | { t: 'quantified'; every: boolean; name: string; in: Expr; sat: Expr }
  | { t: 'sequence'; items: Expr[] }
  | { t: 'instance'; e: Expr; type: SequenceType }
  | { t: 'treat'; e: Expr; type: SequenceType }
  | { t: 'castable'; e: Expr; type: AtomicTypeName; optional: boolean }
  | { t: 'cast'; e: Expr; type: AtomicTypeName; optional: boolean }
  | { t: 'map'; l: Expr; r: Expr };

export const FN_NS = 'http://www.w3.org/2005/xpath-functions';
export const XS_NS = 'http://www.w3.org/2001/XMLSchema';

/** `Q{uri}local`, the expanded name functions and variables are keyed by. */
export function eqName(uri: string, local: string): string {
  return `Q{${uri}}${local}`;
}
