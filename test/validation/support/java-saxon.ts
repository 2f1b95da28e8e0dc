// Java Saxon-HE (Debian's libsaxonhe-java) running a publisher's Schematron XSLT, for tests that
// compare our findings with the publisher's: `SvrlFindings.java` beside this file prints each
// document's failed asserts and successful reports as `id:flag`. `.ci/run` installs the jar, so CI
// runs the comparison live; elsewhere `javaSvrlFindings` says why it cannot.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const JARS = ['/usr/share/java/Saxon-HE.jar', '/usr/share/java/Saxon-HE-9.9.1.5.jar'];
const SOURCE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'java', 'SvrlFindings.java');

/** Why Java Saxon-HE cannot run here, or null when it can. */
export function javaSaxonMissing(): string | null {
  if (!JARS.some((j) => fs.existsSync(j))) return 'Java Saxon-HE not found (apt-get install libsaxonhe-java)';
  for (const tool of ['java', 'javac']) {
    if (spawnSync(tool, ['-version'], { stdio: 'ignore' }).status !== 0) return `${tool} not found`;
  }
  return null;
}

/** Each document's findings under the XSLT, as `id:flag` in SVRL order. */
export function javaSvrlFindings(xslt: string, documents: { name: string; xml: string }[]): Map<string, string[]> {
  const jar = JARS.find((j) => fs.existsSync(j));
  if (!jar) throw new Error('Java Saxon-HE not found');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svrl-java-'));
  try {
    execFileSync('javac', ['-cp', jar, '-d', dir, SOURCE], { stdio: 'inherit' });
    const files = documents.map((d, i) => {
      const file = path.join(dir, `doc-${i}.xml`);
      fs.writeFileSync(file, d.xml);
      return file;
    });
    const out = execFileSync('java', ['-cp', `${jar}${path.delimiter}${dir}`, 'SvrlFindings', xslt, ...files], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    const byFile = new Map(out.trim().split('\n').map((line) => {
      const [file = '', findings = ''] = line.split('\t');
      return [file, findings === '' ? [] : findings.split(' ')] as const;
    }));
    return new Map(documents.map((d, i) => [d.name, byFile.get(`doc-${i}.xml`) ?? ['(no answer)']]));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
