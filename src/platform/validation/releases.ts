// Rule releases as data. A release (Peppol BIS Billing 3.0.21, later 3.0.22, ...) is a manifest that
// names its effective date and where its files are; the validator runs the release in force at the
// moment of the validation. Official files stay in the artifacts folder, never in the repo:
//  - the repo carries the manifests of the releases the fetch script downloads (schemas/releases/*.json),
//    because those official folders ship without one;
//  - a release folder dropped into the artifacts folder with a `release.json` (one or two levels down,
//    e.g. schematron/peppol-bis-3.0.22/release.json) is picked up at the next start, no code change.
// Paths in a manifest are relative to the artifacts folder, so a release may reuse another's files
// (3.0.22 keeps CEN 1.3.16); `slovak`, our own rules, is relative to the repository.
import fs from 'node:fs';
import path from 'node:path';
import type { SchematronSet } from './types.ts';

/** A release as the engine uses it: absolute paths, plain data (it crosses to worker threads). */
export interface RuleRelease {
  /** e.g. `peppol-bis-3.0.21`; reports name it. */
  id: string;
  title: string;
  /** ISO instant from which the release is in force. */
  effectiveFrom: string;
  schematron: Record<SchematronSet, string>;
  /** The CEN Schematron whose asserts carry the code lists (BR-CL-04, -14, -22, -23). */
  codeLists: string;
  /** VEFA unit-test folders and the rule set they test (`tc434-ubl` = CEN, `peppolbis-en16931-base-3.0-ubl` = Peppol). */
  unitTests: { configuration: string; dir: string }[];
  /** Folders of examples that must have no fatal finding under this release. */
  examples: string[];
  /** The manifest it came from (for messages). */
  manifest: string;
}

export const MANIFEST_NAME = 'release.json';

/** Where the repo's own manifests are (the releases whose official folders ship without one). */
export function repoManifestsDir(repoRoot: string): string {
  return path.join(repoRoot, 'schemas', 'releases');
}

class ManifestError extends Error {
  constructor(file: string, what: string) {
    super(`rule release manifest ${file}: ${what}`);
  }
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function text(file: string, m: Record<string, unknown>, key: string): string {
  const v = m[key];
  if (typeof v !== 'string' || v.trim() === '') throw new ManifestError(file, `"${key}" must be a non-empty string`);
  return v;
}

/** A bare date is midnight UTC (Peppol states release dates as days); a date-time must carry its zone. */
function instant(file: string, value: string): string {
  const ok = /^\d{4}-\d{2}-\d{2}$/.test(value) || /^\d{4}-\d{2}-\d{2}T[\d:.]+(Z|[+-]\d{2}:\d{2})$/.test(value);
  const at = new Date(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value);
  if (!ok || Number.isNaN(at.getTime())) throw new ManifestError(file, `"effective_from" must be YYYY-MM-DD or a date-time with zone, not ${value}`);
  return at.toISOString();
}

/** Reads and checks one manifest; relative paths resolve against the artifacts folder (`slovak`: the repo). */
export function readManifest(file: string, artifactsDir: string, repoRoot: string): RuleRelease {
  let raw: unknown;
  try {
    raw = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (err) {
    throw new ManifestError(file, err instanceof Error ? err.message : String(err));
  }
  if (!isRecord(raw)) throw new ManifestError(file, 'must be a JSON object');
  const inArtifacts = (p: string) => path.resolve(artifactsDir, p);
  const sch = raw['schematron'];
  if (!isRecord(sch)) throw new ManifestError(file, '"schematron" must be an object with "cen" and "peppol"');
  const unitTests = raw['unit_tests'] ?? [];
  const examples = raw['examples'] ?? [];
  if (!Array.isArray(unitTests) || !unitTests.every((u) => isRecord(u) && typeof u['configuration'] === 'string' && typeof u['dir'] === 'string')) {
    throw new ManifestError(file, '"unit_tests" must be a list of { configuration, dir }');
  }
  if (!Array.isArray(examples) || !examples.every((e) => typeof e === 'string')) throw new ManifestError(file, '"examples" must be a list of folders');
  const cen = inArtifacts(text(file, sch, 'cen'));
  return {
    id: text(file, raw, 'id'),
    title: typeof raw['title'] === 'string' ? raw['title'] : text(file, raw, 'id'),
    effectiveFrom: instant(file, text(file, raw, 'effective_from')),
    schematron: {
      cen,
      peppol: inArtifacts(text(file, sch, 'peppol')),
      sk: path.resolve(repoRoot, typeof raw['slovak'] === 'string' ? raw['slovak'] : path.join('schemas', 'sk', 'SK-UBL.sch')),
    },
    codeLists: typeof raw['code_lists'] === 'string' ? inArtifacts(raw['code_lists']) : cen,
    unitTests: (unitTests as { configuration: string; dir: string }[]).map((u) => ({ configuration: u.configuration, dir: inArtifacts(u.dir) })),
    examples: (examples as string[]).map(inArtifacts),
    manifest: file,
  };
}

/** `release.json` one or two folders below the artifacts folder. */
function droppedManifests(artifactsDir: string): string[] {
  const found: string[] = [];
  const subdirs = (dir: string): string[] => {
    try {
      return fs.readdirSync(dir, { withFileTypes: true }).filter((d) => d.isDirectory() || d.isSymbolicLink()).map((d) => path.join(dir, d.name)).sort();
    } catch {
      return []; // no artifacts folder: no dropped releases
    }
  };
  for (const first of subdirs(artifactsDir)) {
    for (const dir of [first, ...subdirs(first)]) {
      const file = path.join(dir, MANIFEST_NAME);
      if (fs.existsSync(file)) found.push(file);
    }
  }
  return found;
}

/**
 * Every release known for this artifacts folder, oldest first: the repo's manifests, then the dropped
 * ones (which replace a repo manifest of the same id). Two releases in force from the same instant
 * are a configuration error: which one runs would be a guess.
 */
export function discoverReleases(artifactsDir: string, repoRoot: string): RuleRelease[] {
  const byId = new Map<string, RuleRelease>();
  const repoDir = repoManifestsDir(repoRoot);
  const repoFiles = fs.existsSync(repoDir) ? fs.readdirSync(repoDir).filter((f) => f.endsWith('.json')).sort().map((f) => path.join(repoDir, f)) : [];
  for (const file of [...repoFiles, ...droppedManifests(artifactsDir)]) {
    const release = readManifest(file, artifactsDir, repoRoot);
    byId.set(release.id, release);
  }
  const releases = [...byId.values()].sort((a, b) => a.effectiveFrom.localeCompare(b.effectiveFrom));
  for (let i = 1; i < releases.length; i++) {
    const [a, b] = [releases[i - 1], releases[i]];
    if (a && b && a.effectiveFrom === b.effectiveFrom) {
      throw new Error(`rule releases ${a.id} (${a.manifest}) and ${b.id} (${b.manifest}) are both in force from ${a.effectiveFrom}`);
    }
  }
  return releases;
}

/**
 * The release in force at `at`: the latest whose effective date has come. Before the oldest known
 * release, the oldest one (the service has no older rules, and refusing to validate helps nobody).
 */
export function releaseAt(releases: readonly RuleRelease[], at: Date): RuleRelease {
  const first = releases[0];
  if (!first) throw new Error('no rule release is configured');
  let chosen = first;
  for (const r of releases) if (Date.parse(r.effectiveFrom) <= at.getTime()) chosen = r;
  return chosen;
}
