// The TDD XSD with libxml2, loaded once. Its absolute OASIS imports are served from the local UBL
// 2.1 copy by the schema reader of src/validation/xsd.ts; nothing is fetched from the network.
import fs from 'node:fs';
import { XmlDocument, XsdValidator } from 'libxml2-wasm';
import { registerSchemaReader, xsdFindings } from '../validation/xsd.ts';
import { tddXsdFile, ublCommonDir } from './artifacts.ts';
import type { TddFinding } from './findings.ts';

export function tddXsdAvailable(artifactsDir: string): boolean {
  return fs.existsSync(tddXsdFile(artifactsDir)) && fs.existsSync(ublCommonDir(artifactsDir));
}

export interface TddXsd {
  validate(doc: XmlDocument): TddFinding[];
  dispose(): void;
}

export function loadTddXsd(artifactsDir: string): TddXsd {
  registerSchemaReader(artifactsDir);
  const file = tddXsdFile(artifactsDir);
  const schemaDoc = XmlDocument.fromBuffer(fs.readFileSync(file), { url: file });
  let validator: XsdValidator;
  try {
    validator = XsdValidator.fromDoc(schemaDoc);
  } finally {
    schemaDoc.dispose();
  }
  return {
    validate: (doc) => xsdFindings(validator, doc),
    dispose: () => validator.dispose(),
  };
}
