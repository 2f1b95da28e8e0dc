// XSLT 3.0 -> SaxonJS SEF, with an on-disk cache.
//
// SaxonJS 2 ships its XSLT compiler ("XX", the one behind the xslt3 CLI) as a SEF resource. We run it
// in-process exactly as the CLI does, instead of spawning `xslt3 -export`, then add the checksum
// SaxonJS verifies on load. A full CEN compile takes ~25 s and ~600 MB, so the result is cached under
// `<cacheDir>/` keyed by the SHA-256 of the source and of the generated XSLT.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { saxonJs, type SefNode, type TransformOptions } from './saxon.ts';

let compilerSef: SefNode | null = null;

function linkParents(node: SefNode): void {
  for (const child of node.C ?? []) {
    child.parentNode = node;
    linkParents(child);
  }
}

function loadCompiler(): SefNode {
  if (!compilerSef) {
    compilerSef = saxonJs().getPlatform().resource('compiler');
    linkParents(compilerSef);
  }
  return compilerSef;
}

const SIGMA = '\u03a3';
const EXPORT_NS = 'http://ns.saxonica.com/xslt/export';

/** The SEF checksum SaxonJS checks when it loads a stylesheet: an order-dependent XOR over names and values. */
function signSef(root: SefNode): void {
  let sum = 0;
  let index = 0;
  const shifted = (s: string, seed: number): number => {
    let h = seed << 8;
    for (let i = 0; i < s.length; i++) h = (h << 1) + s.charCodeAt(i);
    return h;
  };
  const pair = (a: string, b: string, seed: number): number => shifted(a, seed) ^ shifted(b, seed);
  const visit = (node: SefNode): void => {
    sum ^= pair(node.N, EXPORT_NS, index++);
    for (const key of Object.keys(node)) {
      if (key === 'N' || key === 'C' || key === SIGMA || key === 'parentNode') continue;
      sum ^= pair(key, '', index);
      sum ^= shifted(String(node[key]), index);
    }
    node.C?.forEach(visit);
    sum ^= 1;
  };
  visit(root);
  root[SIGMA] = (sum < 0 ? 0xffffffff + sum + 1 : sum).toString(16);
}

function compilerOptions(async: boolean): TransformOptions {
  const saxon = saxonJs();
  const staticParams = new saxon.XdmMap();
  staticParams.inSituPut(saxon.XS.QName.fromParts('', '', 'staticParameters'), [new saxon.XdmMap()]);
  return {
    destination: 'application',
    initialMode: 'compile-complete',
    templateParams: { 'Q{}options': { noXPath: false } },
    stylesheetParams: staticParams,
    stylesheetInternal: loadCompiler(),
    async,
  };
}

function resultToSef(principalResult: unknown): SefNode {
  const tree = Array.isArray(principalResult) ? (principalResult[0] as unknown) : principalResult;
  const sef = saxonJs().XPath.sefToJSON((tree as { firstChild: unknown }).firstChild, false);
  signSef(sef);
  return sef;
}

function parseXslt(xslt: string, baseUri: string): unknown {
  const xslDoc = saxonJs().getPlatform().parseXmlFromString(xslt);
  xslDoc._saxonBaseUri = baseUri;
  return xslDoc;
}

/** Compiles XSLT text to a signed SEF tree (slow: seconds to tens of seconds). */
async function compileXsltToSef(xslt: string, baseUri = 'file:///schematron.xsl'): Promise<SefNode> {
  const saxon = saxonJs();
  const options = saxon.checkOptions(compilerOptions(true));
  saxon.internalTransform(loadCompiler(), parseXslt(xslt, baseUri), options);
  const result = await options.resultPromise;
  return resultToSef(result.principalResult);
}

/**
 * The same, synchronously (SaxonJS runs its compiler synchronously when not asked for a promise).
 * The compiled engine uses it to load its SaxonJS fallback only when a document first needs it.
 */
function compileXsltToSefSync(xslt: string, baseUri = 'file:///schematron.xsl'): SefNode {
  const saxon = saxonJs();
  const options = saxon.checkOptions(compilerOptions(false)) as unknown as { principalResult?: unknown };
  saxon.internalTransform(loadCompiler(), parseXslt(xslt, baseUri), options as never);
  if (options.principalResult === undefined) throw new Error('SaxonJS did not compile synchronously');
  return resultToSef(options.principalResult);
}

export function sha256(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/** Waits for another process or thread compiling the same key; a lock older than 10 minutes is stale. */
async function withLock<T>(lockFile: string, fn: () => Promise<T>): Promise<T> {
  for (;;) {
    try {
      fs.closeSync(fs.openSync(lockFile, 'wx'));
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const age = Date.now() - (fs.statSync(lockFile, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > 10 * 60_000) fs.rmSync(lockFile, { force: true });
      else await new Promise((r) => setTimeout(r, 250));
    }
  }
  try {
    return await fn();
  } finally {
    fs.rmSync(lockFile, { force: true });
  }
}

interface CachedSef {
  file: string;
  sef: SefNode;
  fromCache: boolean;
}

function sefFile(cacheDir: string, name: string, sourceHash: string, xslt: string): string {
  return path.join(cacheDir, `${name}-${sourceHash.slice(0, 16)}-${sha256(xslt).slice(0, 16)}.sef.json`);
}

function writeAtomically(file: string, text: string): void {
  const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  fs.writeFileSync(tmp, text);
  fs.renameSync(tmp, file);
}

/** cachedSef without waiting: no lock (two processes may both compile; the rename keeps the file whole). */
export function cachedSefSync(cacheDir: string, name: string, sourceHash: string, xslt: string): CachedSef {
  fs.mkdirSync(cacheDir, { recursive: true });
  const file = sefFile(cacheDir, name, sourceHash, xslt);
  if (fs.existsSync(file)) return { file, sef: JSON.parse(fs.readFileSync(file, 'utf8')) as SefNode, fromCache: true };
  const sef = compileXsltToSefSync(xslt, `file://${file.replace(/\.sef\.json$/, '.xsl')}`);
  writeAtomically(file, JSON.stringify(sef));
  return { file, sef, fromCache: false };
}

/**
 * Returns the SEF for `xslt`, compiling it once. `name` and `sourceHash` only make the file name
 * readable and tie it to the source file; the XSLT hash makes any compiler change a new entry.
 */
export async function cachedSef(cacheDir: string, name: string, sourceHash: string, xslt: string): Promise<CachedSef> {
  fs.mkdirSync(cacheDir, { recursive: true });
  const file = sefFile(cacheDir, name, sourceHash, xslt);
  const read = (): SefNode | null => (fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as SefNode) : null);
  const hit = read();
  if (hit) return { file, sef: hit, fromCache: true };
  return withLock(`${file}.lock`, async () => {
    const raced = read();
    if (raced) return { file, sef: raced, fromCache: true };
    const sef = await compileXsltToSef(xslt, `file://${file.replace(/\.sef\.json$/, '.xsl')}`);
    writeAtomically(file, JSON.stringify(sef));
    return { file, sef, fromCache: false };
  });
}
