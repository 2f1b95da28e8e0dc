// Documents and shapes shared by `npm run bench -- validation` and its measurement worker.
import fs from 'node:fs';
import path from 'node:path';
import { defaultArtifactsDir } from '../src/platform/validation/artifacts.ts';
import type { ValidationEngineName } from '../src/platform/validation/schematron/ruleset.ts';
import { generateInvoice } from '../test/validation/support/generate-invoice.ts';
import { listXmlFiles } from '../test/validation/support/unit-tests.ts';
import { percentile } from './stats.ts';

/** Stage timings arrive in run order; percentiles need them ascending. */
export const percentileOf = (values: number[], p: number): number => percentile([...values].sort((a, b) => a - b), p);

export interface Case {
  name: string;
  docs: string[];
  runs: number;
}

/** The official 3.0.21 examples and generated invoices of 10, 100 and 1,000 lines; `slow` engines run fewer times. */
export function cases(quick: boolean, slow = false): Case[] {
  const dir = path.join(defaultArtifactsDir(), 'examples/peppol-bis-3.0.21/rules/examples');
  const examples = listXmlFiles(dir).map((f) => fs.readFileSync(f, 'utf8'));
  const scale = slow ? 0.2 : 1;
  const runs = (n: number): number => Math.max(1, Math.round((quick ? n / 5 : n) * scale));
  return [
    { name: `official examples (${examples.length})`, docs: examples, runs: runs(20) },
    { name: 'generated, 10 lines', docs: [generateInvoice(10)], runs: runs(100) },
    { name: 'generated, 100 lines', docs: [generateInvoice(100)], runs: runs(50) },
    { name: 'generated, 1,000 lines', docs: [generateInvoice(1000)], runs: runs(15) },
  ];
}

/** Our stages, in pipeline order. */
export const STAGES = ['parse', 'xsd', 'cen', 'peppol', 'sk'] as const;
export type Stage = (typeof STAGES)[number];

export interface StageResult {
  name: string;
  /** Which engine code measured it: '' for this tree, 'before' for a --baseline tree. */
  label: string;
  /** ms p50 per stage. */
  stages: Record<Stage, number>;
  totalP50: number;
  totalP95: number;
  /** This thread's CPU ms per document, mean (its clock ticks too coarsely for a percentile of one run). */
  cpuMean: number;
}

export interface SideBySideResult {
  name: string;
  /** ms p50, parse + CEN + Peppol. */
  compiled: number;
  saxonjs: number;
  /** Findings of CEN + Peppol per document (compared with Java's failed asserts). */
  findings: number[];
}

export type MeasurementTask =
  | { kind: 'stages'; engine: ValidationEngineName | 'literal'; quick: boolean; /** another checkout whose engine runs beside this one's */ baseline?: string }
  | { kind: 'side-by-side'; quick: boolean };
