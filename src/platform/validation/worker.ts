// Piscina worker: one Engine per thread, created on the first task (rule sets load from the SEF cache).
import fs from 'node:fs';
import path from 'node:path';
import { SLOVAK_SCHEMATRON } from './artifacts.ts';
import { releaseHeap } from '../idle-memory.ts';
import { Engine, type EngineOptions } from './engine.ts';
import type { SchemasAvailable, ValidationReport } from './types.ts';

export type WorkerTask =
  | { kind: 'prepare'; options: EngineOptions }
  | { kind: 'validate'; options: EngineOptions; xml: string | Uint8Array; release: string }
  | { kind: 'release-memory' };
export type WorkerResult = { kind: 'prepared'; schemas: SchemasAvailable } | { kind: 'report'; report: ValidationReport } | { kind: 'released' };

let engine: Promise<Engine> | null = null;

/** Runs of our own good invoice let V8 optimise the rule code before real traffic (a few ms each). */
async function warmedEngine(options: EngineOptions): Promise<Engine> {
  const e = await Engine.create(options);
  const sample = path.join(path.dirname(SLOVAK_SCHEMATRON), 'tests', 'good', 'sk-invoice.xml');
  if (fs.existsSync(sample)) {
    const xml = fs.readFileSync(sample);
    for (let i = 0; i < 20; i++) e.validate(xml);
  }
  return e;
}

function engineFor(options: EngineOptions): Promise<Engine> {
  engine ??= warmedEngine(options);
  return engine;
}

export default async function handle(task: WorkerTask): Promise<WorkerResult> {
  // a quiet pool's thread gives back what its documents used (index.ts asks)
  if (task.kind === 'release-memory') {
    releaseHeap();
    return { kind: 'released' };
  }
  const e = await engineFor(task.options);
  if (task.kind === 'prepare') return { kind: 'prepared', schemas: e.schemasAvailable };
  // the release is chosen by the caller (one choice, also for its failure reports); it loads here on its first document
  await e.load(task.release);
  return { kind: 'report', report: e.validate(task.xml, task.release) };
}
