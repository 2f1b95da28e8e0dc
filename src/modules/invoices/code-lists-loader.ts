/**
 * Loads the big code lists from the official CEN Schematron, once at start-up: the lists are data
 * of the artifacts release the service validates with, so the JSON rules and the UBL validation
 * accept exactly the same codes, and nothing is copied into the repo.
 *
 * In CEN-EN16931-UBL.sch each list is the string literal of a `contains(' A B C ', concat(' ', …))`
 * in the test of its assert: BR-CL-04 (ISO 4217), BR-CL-14 (ISO 3166-1), BR-CL-22 (VATEX) and
 * BR-CL-23 (UN/ECE Rec. 20 + 21). The XML is parsed with the service's one XML parser (src/platform/xml,
 * trusted artifact); only the XPath test string is then read for its literal.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { codeLists, type CodeLists } from '../../../commands/invoices/code-lists.ts';
import { defaultArtifactsDir, releaseInForce } from '../../platform/validation/artifacts.ts';
import { parseTrusted, XmlElement } from '../../platform/xml/index.ts';

const SCHEMATRON_NS = 'http://purl.oclc.org/dsdl/schematron';

/**
 * VALIDATION_ARTIFACTS_DIR, else ../shared/validation: the validator's own default (resolved from the
 * repo root rather than the working directory), so both read the same release.
 */
export const defaultCodeListsArtifactsDir = defaultArtifactsDir;

/**
 * The `code_lists` file of the rule release in force at start-up (src/platform/validation/releases.ts),
 * e.g. `<artifactsDir>/schematron/peppol-bis-3.0.21/rules/sch/CEN-EN16931-UBL.sch`. Read once: a release
 * that changes the lists takes effect for the JSON rules at the next start after its date.
 */
export function cenSchematronFile(artifactsDir: string): string {
  return releaseInForce(artifactsDir).codeLists;
}

const cache = new Map<string, Promise<CodeLists>>();

/** The code lists of the artifacts in `artifactsDir`, read once per directory and process. */
export function loadCodeLists(artifactsDir: string = defaultCodeListsArtifactsDir()): Promise<CodeLists> {
  let file: string;
  try {
    file = cenSchematronFile(path.resolve(artifactsDir));
  } catch (err) {
    return Promise.reject(err instanceof Error ? err : new Error(String(err))); // a broken release manifest: the caller's catch reports it
  }
  let lists = cache.get(file);
  if (!lists) {
    lists = readFile(file, 'utf8').then(codeListsFromSchematron);
    // a failed read is not remembered, so a later call can succeed once the artifacts are fetched
    lists.catch(() => cache.delete(file));
    cache.set(file, lists);
  }
  return lists;
}

/** The code lists in the text of a CEN Schematron; throws when one of the four asserts is missing. */
export function codeListsFromSchematron(schematron: string): CodeLists {
  const tests = new Map<string, string[]>();
  const document = parseTrusted(schematron);
  try {
    for (const assert of document.find('//sch:assert', { sch: SCHEMATRON_NS })) {
      if (!(assert instanceof XmlElement)) continue;
      const id = assert.attr('id')?.value;
      const test = assert.attr('test')?.value;
      if (id && test) tests.set(id, [...(tests.get(id) ?? []), test]);
    }
  } finally {
    document.dispose();
  }
  const list = (id: string): string[] => {
    const codes = new Set<string>();
    for (const test of tests.get(id) ?? []) for (const code of listLiteral(test)) codes.add(code);
    if (codes.size === 0) throw new Error(`CEN Schematron has no code list in the test of ${id}`);
    return [...codes];
  };
  return codeLists({
    currencyCodes: list('BR-CL-04'),
    countryCodes: list('BR-CL-14'),
    vatexCodes: list('BR-CL-22'),
    unitCodes: list('BR-CL-23'),
  });
}

/** The codes of the space-delimited literal in `contains(' A B C ', concat(' ', …, ' '))`. */
function listLiteral(test: string): string[] {
  const literal = /contains\(\s*'( [^']*)'\s*,\s*concat\(/.exec(test)?.[1] ?? '';
  return literal.split(/\s+/).filter((code) => code !== '');
}
