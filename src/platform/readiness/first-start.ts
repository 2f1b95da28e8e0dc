import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { packageRoot, schematronFile } from '../validation/artifacts.ts';
import type { ValidationStage } from './validation-stage.ts';

/** The official files the service cannot check an invoice without (the rest of the folder is test data). */
export function missingValidationArtifacts(dir: string): string[] {
  const required = [
    path.join(dir, 'xsd', 'ubl-2.1', 'xsd', 'maindoc', 'UBL-Invoice-2.1.xsd'),
    path.join(dir, 'xsd', 'ubl-2.1', 'xsd', 'maindoc', 'UBL-CreditNote-2.1.xsd'),
    schematronFile(dir, 'cen'),
    schematronFile(dir, 'peppol'),
  ];
  return required.filter((file) => !fs.existsSync(file));
}

export const FETCH_SCRIPT = 'scripts/fetch-validation-artifacts.sh';

/** Runs the pinned, SHA-256-checked download into `dir`, its progress on this terminal; true when it succeeded. */
export function fetchValidationArtifacts(dir: string): Promise<boolean> {
  return new Promise((resolve) => {
    const child = spawn('bash', [path.join(packageRoot(), FETCH_SCRIPT), dir], { stdio: ['ignore', 'inherit', 'inherit'] });
    child.once('error', () => resolve(false));
    child.once('exit', (code) => resolve(code === 0));
  });
}

/** The one plain sentence a newcomer gets when the rules are not there and cannot be fetched. */
export const unavailableSentence = (dir: string) =>
  `Invoices cannot be checked: the official validation rules are not in ${dir} and could not be downloaded; set VALIDATION_ARTIFACTS_DIR to a folder that holds them, or run ${FETCH_SCRIPT} when online (health shows validation: unavailable until then).`;

/**
 * Starts compiling the rules now, in the background, and says so on the terminal: when it
 * starts, every `everyMs` while it lasts, and how it ended.
 */
export function compileInBackground(start: () => Promise<unknown>, stage: () => ValidationStage, dir: string, print: (line: string) => void, everyMs = 15_000): Promise<void> {
  const t0 = Date.now();
  print('Validation rules (XSD, CEN, Peppol BIS, Slovak): compiling in the background (a few seconds; VALIDATION_ENGINE=saxonjs: about a minute the first time, cached afterwards); requests that validate wait for it.');
  const ticker = setInterval(() => print(`  ... validation rules still compiling (${Math.round((Date.now() - t0) / 1000)} s)`), everyMs);
  ticker.unref();
  return start().then(
    () => undefined,
    () => undefined,
  ).finally(() => {
    clearInterval(ticker);
    const now = stage();
    if (now.state === 'ready') print(`Validation rules ready in ${Math.round((Date.now() - t0) / 1000)} s.`);
    else print(unavailableSentence(dir));
  });
}
