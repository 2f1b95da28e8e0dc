import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** One printed figure of a campaign: a measured value, and the target it is held to where there is one. */
export interface Figure {
  /** what is counted, in words a reader of the table understands (e.g. "acknowledged commands lost") */
  name: string;
  value: number | string;
  /** the target in words (e.g. "0", "≤ 5 s"); absent for a figure that is only reported */
  target?: string;
  /** whether the value meets the target; absent for a figure that is only reported */
  ok?: boolean;
  /** which database or variant the figure is about (e.g. "postgres", "pglite", "/sapi/document/send") */
  scope?: string;
}

export interface CampaignReport {
  name: string;
  seed: number;
  startedAt: string;
  seconds: number;
  figures: Figure[];
  /** free-form lines worth keeping beside the figures (histograms, findings) */
  notes: string[];
}

export interface CampaignOptions {
  seed: number;
  /** the databases to run on, where a campaign runs on a database ('pglite' | 'postgres') */
  databases: ('pglite' | 'postgres')[];
  /** a short run (a fraction of the duration or count) for a quick look; the full run is the default */
  quick: boolean;
  args: string[];
}

/** A campaign met every target it states. */
export const passed = (report: CampaignReport) => report.figures.every((f) => f.ok !== false);

export function formatTable(reports: CampaignReport[]): string {
  const rows = reports.flatMap((r) =>
    r.figures.map((f) => [r.name, f.scope ?? '', f.name, String(f.value), f.target ?? '', f.ok === undefined ? '' : f.ok ? 'ok' : 'MISSED']),
  );
  const header = ['campaign', 'scope', 'figure', 'value', 'target', ''];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

const REPORTS = fileURLToPath(new URL('../reports/', import.meta.url));

/** Writes the reports as JSON under reports/ (ignored by git) and returns the file's path. */
export async function saveReports(label: string, reports: CampaignReport[]): Promise<string> {
  await mkdir(REPORTS, { recursive: true });
  const file = path.join(REPORTS, `${label}-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  await writeFile(file, JSON.stringify(reports, null, 2));
  return file;
}
