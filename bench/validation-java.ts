// The Java column of `npm run bench -- validation`: Java Saxon-HE 9.9 (Debian's libsaxonhe-java) running
// the publishers' XSLT of the same CEN and Peppol rules (../shared/validation/reference-xslt/) on the same
// documents, warm. Optional: without java, javac, the jar or the XSLT it says why and returns null.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const JARS = ['/usr/share/java/Saxon-HE.jar', '/usr/share/java/Saxon-HE-9.9.1.5.jar'];
const SOURCE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'java', 'ValidationBench.java');

/** Java's stages: building the tree, then each publisher XSLT on it. */
export const JAVA_STAGES = ['parse', 'cen', 'peppol'] as const;
export type JavaStage = (typeof JAVA_STAGES)[number];

export interface JavaTimings {
  /** ms per run, per document index. */
  perDocument: number[][];
  /** CPU ms per run (the thread's, plus the serial collector's), per document index. */
  cpu: number[][];
  /** ms per run of each stage, per document index. */
  stages: Record<JavaStage, number[][]>;
  /** svrl:failed-assert count per document index (last run). */
  failed: number[];
}

function available(artifactsDir: string): { jar: string; xslt: string } | string {
  const jar = JARS.find((j) => fs.existsSync(j));
  if (!jar) return 'Java Saxon-HE not found (apt-get install libsaxonhe-java)';
  for (const tool of ['java', 'javac']) {
    if (spawnSync(tool, ['-version'], { stdio: 'ignore' }).status !== 0) return `${tool} not found`;
  }
  const xslt = path.join(artifactsDir, 'reference-xslt');
  if (!fs.existsSync(path.join(xslt, 'CEN-EN16931-UBL-1.3.16.xslt'))) return `${xslt} not found`;
  return { jar, xslt };
}

/** Runs the documents through Java Saxon-HE; null (with the reason printed) when Java is not there. */
export function javaTimings(artifactsDir: string, documents: string[], warmup: number, runs: number): JavaTimings | null {
  const setup = available(artifactsDir);
  if (typeof setup === 'string') {
    console.log(`\n(Java column skipped: ${setup}.)`);
    return null;
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'validation-java-'));
  try {
    execFileSync('javac', ['-cp', setup.jar, '-d', dir, SOURCE], { stdio: 'inherit' });
    const files = documents.map((xml, i) => {
      const f = path.join(dir, `doc-${i}.xml`);
      fs.writeFileSync(f, xml);
      return f;
    });
    const out = execFileSync('java', ['-XX:+UseSerialGC', '-cp', `${setup.jar}${path.delimiter}${dir}`, 'ValidationBench', setup.xslt, String(warmup), String(runs), ...files], {
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    const perDocument: number[][] = documents.map(() => []);
    const stages = Object.fromEntries(JAVA_STAGES.map((s) => [s, documents.map((): number[] => [])])) as Record<JavaStage, number[][]>;
    const cpu: number[][] = documents.map(() => []);
    const failed: number[] = documents.map(() => 0);
    for (const line of out.trim().split('\n')) {
      const [index, ms, fails, ...split] = line.split('\t').map(Number) as [number, number, number, ...number[]];
      perDocument[index]?.push(ms);
      JAVA_STAGES.forEach((s, k) => stages[s][index]?.push(split[k] ?? NaN));
      cpu[index]?.push(split[JAVA_STAGES.length] ?? NaN);
      failed[index] = fails;
    }
    return { perDocument, cpu, stages, failed };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
