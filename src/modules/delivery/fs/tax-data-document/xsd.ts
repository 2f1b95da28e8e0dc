// The TDD XSD, loaded once (src/platform/xml/xsd.ts). Its absolute OASIS imports are served from the local UBL
// 2.1 copy by the schema reader; nothing is fetched from the network.
import fs from 'node:fs';
import type { XmlDocument } from '../../../../platform/xml/index.ts';
import { loadXsd } from '../../../../platform/xml/xsd.ts';
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
  return loadXsd(artifactsDir, tddXsdFile(artifactsDir));
}
