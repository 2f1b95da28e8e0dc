// Compiles one XPath expression outside a rule set (tests compare it with SaxonJS.XPath.evaluate;
// tools use it to try an expression). The context item is the document node.
import { CompileError, ExprCompiler, ModuleBuilder, type Environment } from './codegen.ts';
import { parseXPath } from './parser.ts';
import * as R from './runtime.ts';
import type { XDocument } from './tree.ts';

export type CompiledExpression = (doc: XDocument, variables?: Record<string, R.Seq>) => R.Seq;

export function compileExpression(xpath: string, namespaces: ReadonlyMap<string, string>, variables: string[] = []): CompiledExpression {
  const m = new ModuleBuilder();
  const env: Environment = { global: () => undefined, userFunction: () => undefined, key: () => undefined };
  const x = new ExprCompiler(m, env);
  const vars = new Map(variables.map((v, k) => [v, { c: `V[${k}]`, card: 'many' as const, kind: 'item' as const }]));
  const g = x.gen(parseXPath(xpath, { namespaces }), { vars, focus: { c: 'S.root', kind: 'node', p: '1', z: '1' } });
  const source = `'use strict';\n${m.decls.join('\n')}\nreturn (S, V) => ${x.seq(g)};`;
  const fn = new Function('R', source)(R) as (S: unknown, V: R.Seq[]) => R.Seq;
  return (doc, values = {}) => fn({ doc, root: doc.root, g: [], nm: [] }, variables.map((v) => values[v] ?? []));
}

export { CompileError };
