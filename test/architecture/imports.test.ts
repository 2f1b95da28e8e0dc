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

const all = ['src', 'commands', 'projections', 'events'].flatMap(sources);
const offenders = (files: string[], forbidden: (target: string) => boolean) =>
  files.flatMap((f) => importsOf(f).filter(forbidden).map((t) => `${f} → ${t}`));

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
  it('has no import cycle in src, commands, projections and events', () => {
    expect(firstCycle(all)).to.equal(null);
  });

  it('only entry points import the composition root (src/service.ts)', () => {
    const entryPoints = (f: string) => f === 'src/main.ts' || f.startsWith('src/cli/');
    expect(offenders(all.filter((f) => !entryPoints(f)), (t) => t === 'src/service.ts')).to.deep.equal([]);
  });

  it('a module imports no other module', () => {
    const moduleOf = (f: string) => /^src\/modules\/([^/]+)\//.exec(f)?.[1];
    const modules = all.filter((f) => moduleOf(f));
    expect(offenders(modules, (t) => moduleOf(t) !== undefined && t !== 'src/modules/module.ts').filter((line) => {
      const [from, to] = line.split(' → ') as [string, string];
      return moduleOf(from) !== moduleOf(to);
    })).to.deep.equal([]);
  });

  it('event contracts import nothing from the live model (commands/)', () => {
    expect(offenders(sources('events'), (t) => t.startsWith('commands/'))).to.deep.equal([]);
  });

  it('the HTTP platform knows nothing of the domain, and HTTP never reaches into a projector', () => {
    expect(offenders(sources('src/platform/http'), (t) => t.startsWith('commands/'))).to.deep.equal([]);
    expect(offenders(sources('src/http'), (t) => /^projections\/[^/]+\/projector\.ts$/.test(t))).to.deep.equal([]);
  });

  it('pure deciders import no infrastructure (src/)', () => {
    expect(offenders(sources('commands'), (t) => t.startsWith('src/'))).to.deep.equal([]);
  });
});
