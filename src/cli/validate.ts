// `npm run cli -- validate FILE... [--json] [--at ISO]`: validates UBL files with XSD, CEN, Peppol and SK
// rules of the rule release in force at --at (default now). Prints findings per file (text, or one JSON
// document with --json), each naming its release. Exit code: 1 on any fatal
// finding; else 3 when a stage could not run for some file (rules missing: nothing may be called
// valid that was not checked); else 0.
import fs from 'node:fs';
import { createValidator, type Finding, type ValidationReport } from '../platform/validation/index.ts';

const USAGE = 'usage: npm run cli -- validate FILE... [--json] [--workers N] [--at YYYY-MM-DD|ISO date-time]   (exit 0 valid, 1 invalid, 2 usage, 3 not fully checked)';

/** Every stage ran: XSD, the CEN and Peppol rules, the Slovak rules. */
const fullyChecked = (r: ValidationReport) => r.xsd_valid !== null && r.peppol_valid !== null && r.slovak_valid !== null;

function mark(v: boolean | null): string {
  return v === null ? 'not run' : v ? 'ok' : 'FAILED';
}

function line(f: Finding): string {
  return `  ${f.flag.padEnd(7)} ${f.rule.padEnd(28)} [${f.source}] ${f.location}\n          ${f.message}`;
}

function text(file: string, r: ValidationReport): string {
  const fatal = r.errors.length > 0;
  const verdict = fatal ? 'INVALID' : fullyChecked(r) ? 'valid' : 'NOT CHECKED (a rule set is missing: see the warnings)';
  const head = `${file}: ${verdict} (${r.document_type ?? 'unknown document'}; rules ${r.release}; xsd ${mark(r.xsd_valid)}, peppol ${mark(r.peppol_valid)}, slovak ${mark(r.slovak_valid)}; ${r.errors.length} errors, ${r.warnings.length} warnings)`;
  return [head, ...r.errors.map(line), ...r.warnings.map(line)].join('\n');
}

export async function run(args: string[]): Promise<number> {
  const json = args.includes('--json');
  const wi = args.indexOf('--workers');
  const ai = args.indexOf('--at');
  const files = args.filter((a, i) => !a.startsWith('--') && (wi < 0 || i !== wi + 1) && (ai < 0 || i !== ai + 1));
  if (files.length === 0 || args.includes('--help')) {
    console.error(USAGE);
    return 2;
  }
  // the moment to check for picks the rule release (a bare day is midnight UTC, as in the release manifests)
  const atArg = ai >= 0 ? (args[ai + 1] ?? '') : undefined;
  const at = atArg === undefined ? undefined : new Date(/^\d{4}-\d{2}-\d{2}$/.test(atArg) ? `${atArg}T00:00:00Z` : atArg);
  if (at && Number.isNaN(at.getTime())) {
    console.error(`--at must be a day (YYYY-MM-DD) or an ISO date-time, not ${atArg}\n${USAGE}`);
    return 2;
  }
  const missing = files.filter((f) => !fs.existsSync(f));
  if (missing.length > 0) {
    console.error(`no such file: ${missing.join(', ')}`);
    return 2;
  }
  const contents: Buffer[] = [];
  for (const file of files) {
    try {
      contents.push(fs.readFileSync(file));
    } catch (err) {
      console.error(`cannot read ${file}: ${err instanceof Error ? err.message : String(err)}`);
      return 2;
    }
  }
  // Worker start-up costs about a second, so a pool only pays off for many files.
  const workers = wi >= 0 ? Number(args[wi + 1]) : files.length > 4 ? 2 : 0;
  const validator = await createValidator({ workers });
  try {
    // validate never throws for a document: unsafe, oversized or unreadable XML comes back as a finding
    const reports = await Promise.all(files.map(async (file, i) => ({ file, report: await validator.validate(contents[i] ?? '', at ? { at } : {}) })));
    if (json) console.log(JSON.stringify(reports, null, 2));
    else for (const { file, report } of reports) console.log(text(file, report));
    if (reports.some((r) => r.report.errors.length > 0)) return 1;
    return reports.every((r) => fullyChecked(r.report)) ? 0 : 3;
  } finally {
    await validator.close();
  }
}
