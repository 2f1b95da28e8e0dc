// XSD validation with libxml2. A schema is read from the artifacts directory (trusted files) and its
// imports only from below a registered root: libxml2's input provider is the schema loader, so an
// untrusted document can never make it open anything else.
import fs from 'node:fs';
import path from 'node:path';
import { XmlValidateError, XsdValidator, xmlRegisterInputProvider, type XmlDocument } from 'libxml2-wasm';
import { parseTrusted } from './parse.ts';
import type { Finding } from '../validation/types.ts';

/**
 * The TDD schema (src/modules/delivery/fs/tax-data-document) imports the UBL 2.1 common schemas by their OASIS URL; they are the same
 * files as our local copy, so they are read from there and never fetched.
 */
const OASIS_UBL_21 = /^https?:\/\/docs\.oasis-open\.org\/ubl\/os-UBL-2\.1\/xsdrt\//;
const LOCAL_UBL_21 = path.join('xsd', 'ubl-2.1', 'xsd');

/** Directories the schema loader may read below (each artifacts directory a validator was given). */
const providerRoots: string[] = [];

/** The local file a schema URL stands for, if it lies below a registered root and exists. */
function schemaPath(url: string): string | null {
  for (const root of providerRoots) {
    const p = OASIS_UBL_21.test(url)
      ? path.join(root, LOCAL_UBL_21, url.replace(OASIS_UBL_21, ''))
      : path.resolve(url.startsWith('file://') ? new URL(url).pathname : url);
    if (p.startsWith(root) && fs.existsSync(p)) return p;
  }
  return null;
}

/**
 * Lets libxml2 read the schema's imports from disk, but only below the artifacts directory: the
 * provider is the schema loader, so untrusted documents can never make it open anything else.
 */
function registerSchemaReader(root: string): void {
  const dir = path.resolve(root) + path.sep;
  if (providerRoots.includes(dir)) return;
  providerRoots.push(dir);
  if (providerRoots.length > 1) return; // the one provider registered below reads every root
  xmlRegisterInputProvider({
    match: (url) => schemaPath(url) !== null,
    open: (url) => {
      const p = schemaPath(url);
      return p === null ? undefined : fs.openSync(p, 'r');
    },
    read: (fd, buf) => fs.readSync(fd, buf),
    close: (fd) => {
      fs.closeSync(fd);
      return true;
    },
  });
}

/** Schema errors of `doc` as fatal `XSD` findings at line:col; [] when it is valid. */
function xsdFindings(validator: XsdValidator, doc: XmlDocument): Finding<'xsd'>[] {
  try {
    validator.validate(doc);
    return [];
  } catch (err) {
    if (!(err instanceof XmlValidateError)) {
      // libxml2 gives up on some trees (an unexpanded entity reference once did): a finding, not a crash
      const message = err instanceof Error ? err.message : String(err);
      return [{ rule: 'XSD-ENGINE-ERROR', flag: 'fatal', location: '', message: `XSD validation could not run: ${message}`, source: 'xsd' }];
    }
    return err.details.map((d) => ({ rule: 'XSD', flag: 'fatal' as const, location: `${d.line}:${d.col}`, message: d.message.trim(), source: 'xsd' as const }));
  }
}

export interface XsdSchema {
  /** Schema errors of `doc` as fatal `XSD` findings at line:col; [] when it is valid. */
  validate(doc: XmlDocument): Finding<'xsd'>[];
  dispose(): void;
}

/** Loads the schema `file` (below `root`, whose files its imports may read). */
export function loadXsd(root: string, file: string): XsdSchema {
  registerSchemaReader(root);
  const schemaDoc = parseTrusted(fs.readFileSync(file), file);
  let validator: XsdValidator;
  try {
    validator = XsdValidator.fromDoc(schemaDoc);
  } finally {
    schemaDoc.dispose();
  }
  return { validate: (doc) => xsdFindings(validator, doc), dispose: () => validator.dispose() };
}
