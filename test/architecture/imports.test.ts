import { expect } from 'chai';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

// The layering rules of docs/architecture.md, checked on every import (type imports included).
const ROOT = path.resolve(import.meta.dirname, '../..');

function sources(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => path.relative(ROOT, path.join(e.parentPath, e.name)));
}

/** The repository paths a file imports (relative specifiers only). */
function importsOf(file: string): string[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(path.join(ROOT, file), 'utf8'), true, true);
  return importedFiles.map((i) => i.fileName).filter((s) => s.startsWith('.')).map((s) => path.relative(ROOT, path.resolve(path.dirname(path.join(ROOT, file)), s)));
}

const all = ['src', 'commands', 'projections', 'events', 'schemas'].flatMap(sources);
const offenders = (files: string[], forbidden: (target: string) => boolean) =>
  files.flatMap((f) => importsOf(f).filter(forbidden).map((t) => `${f} → ${t}`));
const inSrc = (f: string) => f.startsWith('src/');
const moduleOf = (f: string) => /^src\/modules\/([^/]+)\//.exec(f)?.[1];
const doorOf = (name: string) => `src/modules/${name}/index.ts`;
const isWiring = (f: string) => /^src\/modules\/[^/]+\/wiring\.ts$/.test(f);
const compositionRoot = (f: string) => f === 'src/service.ts';
const entryPoint = (f: string) => f === 'src/main.ts' || f === 'src/cli.ts' || f.startsWith('src/cli/');

/**
 * Which module uses which, through the other's index.ts. A new edge is a design decision: add it
 * here and to docs/architecture.md. idempotency is the Idempotency-Key of every create route.
 */
const MODULE_EDGES = [
  'approvals → invoices',
  'bulk-import → idempotency', 'bulk-import → invoices', 'bulk-import → usage',
  'credit-notes → delivery', 'credit-notes → idempotency', 'credit-notes → invoices', 'credit-notes → payments', 'credit-notes → usage',
  'customers → idempotency',
  'delivery → credit-notes', 'delivery → idempotency', 'delivery → invoices', 'delivery → mls', 'delivery → usage',
  'exports → invoices',
  'identity → idempotency', 'identity → tenancy',
  'invoice-pdf → exports', 'invoice-pdf → invoices',
  'invoices → idempotency', 'invoices → payments',
  'payments → idempotency', 'payments → invoices',
  // the reports go out through the delivery module's Peppol network, in its SBDH, under its identifiers
  'reporting → delivery',
  'sapi → delivery', 'sapi → idempotency', 'sapi → identity', 'sapi → invoices', 'sapi → usage',
  'tenancy → identity',
  'webhooks → idempotency',
];

/** One import cycle among `files`, as the path that closes it, or null (depth-first search). */
function firstCycle(files: string[]): string[] | null {
  const graph = new Map(files.map((f) => [f, importsOf(f).filter((t) => files.includes(t))]));
  const state = new Map<string, 'open' | 'done'>();
  const trail: string[] = [];
  const visit = (file: string): string[] | null => {
    if (state.get(file) === 'done') return null;
    if (state.get(file) === 'open') return [...trail.slice(trail.indexOf(file)), file];
    state.set(file, 'open');
    trail.push(file);
    for (const next of graph.get(file) ?? []) {
      const cycle = visit(next);
      if (cycle) return cycle;
    }
    trail.pop();
    state.set(file, 'done');
    return null;
  };
  for (const file of files) {
    const cycle = visit(file);
    if (cycle) return cycle;
  }
  return null;
}

describe('architecture: who may import what', () => {
  it('has no import cycle in src, commands, projections, events and schemas', () => {
    expect(firstCycle(all)).to.equal(null);
  });

  it('only entry points import the composition root (src/service.ts), and only it wires modules (wiring.ts)', () => {
    expect(offenders(all.filter((f) => !entryPoint(f)), (t) => t === 'src/service.ts')).to.deep.equal([]);
    expect(offenders(all.filter((f) => !compositionRoot(f)), isWiring)).to.deep.equal([]);
  });

  it('the platform imports no module, no front door and nothing of the composition', () => {
    const outside = (t: string) => inSrc(t) && !t.startsWith('src/platform/');
    expect(offenders(sources('src/platform'), outside)).to.deep.equal([]);
  });

  it('a module, a front door and the composition root reach a module only through its index.ts', () => {
    const users = all.filter((f) => inSrc(f) && !f.startsWith('src/platform/'));
    expect(offenders(users, (t) => {
      const name = moduleOf(t);
      return name !== undefined && t !== doorOf(name) && !isWiring(t);
    }).filter((line) => {
      const [from, to] = line.split(' → ') as [string, string];
      return moduleOf(from) !== moduleOf(to);
    })).to.deep.equal([]);
  });

  it('modules use each other only along the stated edges', () => {
    const edges = new Set<string>();
    for (const f of all.filter((file) => moduleOf(file))) {
      for (const t of importsOf(f)) {
        const [from, to] = [moduleOf(f), moduleOf(t)];
        if (to && from !== to) edges.add(`${from} → ${to}`);
      }
    }
    expect([...edges].sort()).to.deep.equal([...MODULE_EDGES].sort());
  });

  it('read models, deciders and event contracts import no module and no front door', () => {
    const live = (t: string) => t.startsWith('src/modules/') || t.startsWith('src/doors/');
    expect(offenders(sources('projections'), live)).to.deep.equal([]);
    expect(offenders(sources('commands'), inSrc)).to.deep.equal([]);
    expect(offenders(sources('events'), (t) => t.startsWith('commands/') || inSrc(t))).to.deep.equal([]);
  });

  it('the HTTP toolkit knows nothing of the domain, and no route reaches into a projector', () => {
    const shared = (t: string) => t.startsWith('src/platform/') || t.startsWith('schemas/common/');
    expect(offenders(sources('src/platform/http'), (t) => !shared(t))).to.deep.equal([]);
    const projector = (t: string) => /^projections\/[^/]+\/projector\.ts$/.test(t);
    const routes = all.filter((f) => f.startsWith('src/doors/') || /^src\/modules\/.*routes\.ts$/.test(f));
    expect(offenders(routes, projector)).to.deep.equal([]);
  });

  it('test-only helpers (given, arbitraries, test fixtures) are imported by tests only, and the build leaves them out', () => {
    const testOnly = (f: string) => /(^|\/)(given|test-fixtures|[\w-]*arbitraries)\.ts$/.test(f);
    const shipped = all.filter((f) => !f.endsWith('.test.ts') && !testOnly(f));
    expect(offenders(shipped, testOnly)).to.deep.equal([]);
    const build = readFileSync(path.join(ROOT, 'tsconfig.build.json'), 'utf8');
    for (const pattern of ['**/given.ts', '**/test-fixtures.ts', '**/*-arbitraries.ts']) expect(build).to.include(`"${pattern}"`);
  });
});
